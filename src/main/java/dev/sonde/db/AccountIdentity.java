package dev.sonde.db;

import dev.sonde.config.SondeConfig.AccountIdentityConfig;

/**
 * Whom the database sees when one account reads a connection: the connection's own login, a role
 * its transactions set ({@code SET LOCAL ROLE}, PostgreSQL), the account's own user, or the login
 * cut to an allow-list of tables (engines without roles).
 *
 * @param key the entry under the connection's {@code accounts} (an account, or {@code *})
 * @param role the role each transaction sets, or null
 * @param allowList the tables the account may read, or null for what the database grants
 * @param described what the audit trail names as the database role, or null for the login
 */
record AccountIdentity(String key, String role, TableAllowList allowList, String described) {
  static final AccountIdentity LOGIN = new AccountIdentity("", null, null, null);

  /** The identity of an entry that names a role or tables (a user is a login of its own). */
  static AccountIdentity of(String key, AccountIdentityConfig entry) {
    return entry.role().isBlank()
        ? new AccountIdentity(key, null, TableAllowList.of(entry.tables()), "allow-list")
        : new AccountIdentity(key, entry.role(), null, entry.role());
  }

  /** An account that logs in with its own {@code user}. */
  static AccountIdentity user(String key, String user) {
    return new AccountIdentity(key, null, null, user);
  }
}
