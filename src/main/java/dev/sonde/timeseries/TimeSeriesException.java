package dev.sonde.timeseries;

/** A time-series request the caller can fix: an unknown tag, a table that is not a tag table. */
public final class TimeSeriesException extends RuntimeException {
  public TimeSeriesException(String message) {
    super(message, null, false, false);
  }
}
