package dev.sonde.jobs;

/** Where a job is in its life; every status but RUNNING is final. */
public enum JobStatus {
  RUNNING,
  SUCCEEDED,
  FAILED,
  CANCELLED;

  public String wireName() {
    return name().toLowerCase();
  }

  public boolean isFinal() {
    return this != RUNNING;
  }

  public static JobStatus fromWire(String name) {
    return name == null ? RUNNING : valueOf(name.toUpperCase());
  }
}
