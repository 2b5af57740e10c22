package dev.sonde.db;

import dev.sonde.db.guard.SqlGuard;

/** H2: the JDBC defaults (read-only connection, transaction rolled back) fit it as they are. */
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
