package dev.sonde.dashboard;

/** A dashboard request the caller can fix: a missing panel, a bad filename, an unknown type. */
public final class DashboardException extends RuntimeException {
  public DashboardException(String message) {
    super(message, null, false, false);
  }
}
