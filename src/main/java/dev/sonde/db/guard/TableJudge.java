package dev.sonde.db.guard;

/**
 * Decides whether a read may name what it names: an account's allow-list on an engine without
 * roles. It throws, in the words the caller should hear, when the read names something it may not.
 */
@FunctionalInterface
public interface TableJudge {
  /** Every table: the connection's own identity, or one whose database decides by its grants. */
  TableJudge ANY = named -> {};

  void check(TablesNamed named);

  /** Whether this judge looks at what a read names (the guard collects it only then). */
  default boolean judges() {
    return this != ANY;
  }
}
