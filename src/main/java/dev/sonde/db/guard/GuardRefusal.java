package dev.sonde.db.guard;

/** Why the guard refused a statement, in words that say what to do instead. */
final class GuardRefusal extends RuntimeException {
  GuardRefusal(String message) {
    super(message, null, false, false);
  }
}
