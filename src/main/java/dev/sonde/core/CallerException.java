package dev.sonde.core;

import java.util.List;

/**
 * A failure the caller can fix, in every layer and family: its message says what to change, and it
 * reaches the caller as it is (an {@code isError} result, a 400 or 404), logged as one line without
 * a stack. Anything else is an internal error that the caller hears of only generically. When the
 * fix is to pick one of several values, {@link #choices()} names them, so a tool can ask the user.
 */
public final class CallerException extends RuntimeException {
  private final List<String> choices;

  public CallerException(String message) {
    this(message, List.of());
  }

  public CallerException(String message, List<String> choices) {
    super(message, null, false, false);
    this.choices = List.copyOf(choices);
  }

  /** The values one of which the caller should have named; empty when the fix is not a choice. */
  public List<String> choices() {
    return choices;
  }
}
