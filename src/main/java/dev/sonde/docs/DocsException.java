package dev.sonde.docs;

/** A request the caller can fix: the message says what to change. */
public final class DocsException extends RuntimeException {
  public DocsException(String message) {
    super(message);
  }
}
