package dev.sonde.auth;

import java.util.Objects;

/**
 * Who a request acts as: the account (its workspace, its jobs), what it may call, and the API token
 * it proved itself with ({@code tokenId}, null for the local person and stdio).
 */
public record Principal(String account, Grant grant, String tokenId) {
  public Principal(String account, Grant grant) {
    this(account, grant, null);
  }

  /**
   * Whether the job view shows it every account's jobs: its toolsets hold system information (or
   * every tool); otherwise it sees its own.
   */
  public boolean seesEveryonesJobs() {
    return grant.isEverything() || grant.toolsets().contains(Toolsets.SYSTEM_INFORMATION);
  }

  /** Whether {@code other} is the same account signed in with the same credential. */
  public boolean sameAs(Principal other) {
    return other != null && account.equals(other.account) && Objects.equals(tokenId, other.tokenId);
  }
}
