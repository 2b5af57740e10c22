package dev.sonde.core;

/**
 * A failure the caller can fix, in every layer and family: its message says what to change, and it
 * reaches the caller as it is (an {@code isError} result, a 400 or 404), logged as one line without
 * a stack. Anything else is an internal error that the caller hears of only generically.
 */
public final class CallerException extends RuntimeException {
  public CallerException(String message) {
    super(message, null, false, false);
  }
}
