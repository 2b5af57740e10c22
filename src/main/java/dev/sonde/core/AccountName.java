package dev.sonde.core;

import java.util.regex.Pattern;

/**
 * What an account may be called, wherever one is named (a token, an OAuth claim, a workspace
 * folder, a connection's accounts): 1-64 ASCII letters, digits, '.', '_' or '-', never starting
 * with a '.', so it is always one safe path segment.
 */
public final class AccountName {
  public static final String PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";
  private static final Pattern COMPILED = Pattern.compile(PATTERN);

  /** What a caller hears when a name does not fit. */
  public static final String RULE = "account names are 1-64 ASCII letters, digits, '.', '_' or '-'";

  private AccountName() {}

  public static boolean isValid(String account) {
    return account != null && COMPILED.matcher(account).matches();
  }
}
