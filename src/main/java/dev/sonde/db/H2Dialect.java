package dev.sonde.db;

import dev.sonde.db.guard.SqlGuard;

/**
 * H2: reads run in a JDBC transaction that is rolled back. H2 ignores read-only connections (and
 * commits DDL on its own), so it relies on the strict guard: {@code engine-only} is refused.
 */
final class H2Dialect extends Dialect {
  @Override
  public String name() {
    return "h2";
  }

  @Override
  public SqlGuard.Profile guardProfile() {
    return SqlGuard.Profile.H2;
  }
}
