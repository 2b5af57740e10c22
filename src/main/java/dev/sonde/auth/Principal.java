package dev.sonde.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * Who a request acts as: the account (its workspace, its jobs), what it may call, the id of the
 * token it proved itself with ({@code tokenId}: an API token's id, an access token's {@code jti};
 * null for the local person and stdio), what an MCP session it opens is bound to ({@code binding}:
 * the API token, or for OAuth the account, since access tokens are refreshed within a session), and
 * when its credential stops being good ({@code expires}, null for never).
 */
public record Principal(
    String account, Grant grant, String tokenId, String binding, Instant expires) {
  /** The local account: stdio, and every HTTP request with {@code auth.mode: none}. */
  public Principal(String account, Grant grant) {
    this(account, grant, null, null, null);
  }

  static Principal ofApiToken(String account, Grant grant, String id, Instant expires) {
    return new Principal(account, grant, id, "token:" + id, expires);
  }

  static Principal ofAccessToken(String account, Grant grant, String jti, Instant expires) {
    return new Principal(account, grant, jti, "oauth:" + account, expires);
  }

  /**
   * Whether the job view shows it every account's jobs: it is the local person (the only one there
   * is), or its toolsets hold system information (or every tool); otherwise it sees its own.
   */
  public boolean seesEveryonesJobs() {
    return binding == null
        || grant.isEverything()
        || grant.toolsets().contains(Toolsets.SYSTEM_INFORMATION);
  }

  /** Whether {@code other} may act in a session this principal opened. */
  public boolean sameAs(Principal other) {
    return other != null && account.equals(other.account) && Objects.equals(binding, other.binding);
  }

  /** Who owns what it starts (a modern task): its account, and the credential it is bound to. */
  public String owner() {
    return binding == null ? account : account + "/" + binding;
  }

  /** Whether its credential is past its expiry at {@code now}. */
  public boolean expiredAt(Instant now) {
    return expires != null && !now.isBefore(expires);
  }
}
