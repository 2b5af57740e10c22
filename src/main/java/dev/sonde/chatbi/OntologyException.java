package dev.sonde.chatbi;

/** A domain that cannot be used or chosen; the message says what to change. */
public final class OntologyException extends RuntimeException {
  public OntologyException(String message) {
    super(message);
  }
}
