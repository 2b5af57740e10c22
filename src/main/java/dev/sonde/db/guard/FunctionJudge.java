package dev.sonde.db.guard;

/** Decides, by name, whether a read may call a function. */
@FunctionalInterface
public interface FunctionJudge {
  /** Why a call to {@code name} is refused, as a sentence for the caller; null when it may run. */
  String refusal(String name);

  /**
   * Why a read may not hold {@code name} anywhere, not only before a parenthesis: PostgreSQL runs
   * {@code f(t)} written as {@code t.f}, so a function that runs as another role is refused by its
   * name alone. Null when the name may stand.
   */
  default String nameRefusal(String name) {
    return null;
  }
}
