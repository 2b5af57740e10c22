package dev.sonde.report;

/** A report template: what it needs and how it turns data into findings. */
public interface ReportTemplate {
  String id();

  String title();

  /** One line on what the template covers, for the agent choosing one. */
  String description();

  /** Whether it reads raw samples (spectra) rather than bucket averages. */
  default boolean wantsRaw() {
    return false;
  }

  Analysis analyse(ReportData data);
}
