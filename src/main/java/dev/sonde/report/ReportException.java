package dev.sonde.report;

/** A report that cannot be made as asked; the message says what to change. */
public final class ReportException extends RuntimeException {
  public ReportException(String message) {
    super(message, null, false, false);
  }
}
