package dev.sonde.core;

/** Thrown by a tool that noticed its call was cancelled. */
public final class CancelledException extends RuntimeException {
  public CancelledException(String reason) {
    super(reason, null, false, false);
  }
}
