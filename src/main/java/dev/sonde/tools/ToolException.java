package dev.sonde.tools;

/** A problem the caller can fix; it becomes an {@code isError} result with this message. */
public final class ToolException extends RuntimeException {
  public ToolException(String message) {
    super(message, null, false, false);
  }
}
