package dev.sonde.chatbi;

/** A question the embedded generator cannot turn into SQL; the message names what it missed. */
final class NotUnderstood extends RuntimeException {
  NotUnderstood(String message) {
    super(message);
  }
}
