package dev.sonde.forecast;

/** A forecast that cannot be made as asked; the message says what to change. */
public final class ForecastException extends RuntimeException {
  public ForecastException(String message) {
    super(message);
  }
}
