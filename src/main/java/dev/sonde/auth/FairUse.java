package dev.sonde.auth;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-account limits on work in flight, so one account of a shared Sonde cannot take every worker
 * from the others: at most {@code maxCalls} tool calls at once, of which at most {@code maxJobs}
 * long ones (job tools: chat BI, forecasts, reports). The local account (stdio, auth mode none) is
 * one person's and has no limit; 0 means no limit.
 */
public final class FairUse {
  private final int maxCalls;
  private final int maxJobs;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> jobs = new ConcurrentHashMap<>();

  public FairUse(int maxCalls, int maxJobs) {
    this.maxCalls = maxCalls;
    this.maxJobs = maxJobs;
  }

  /**
   * Counts a call of {@code principal} in, or says why not (nothing counted then). Every admitted
   * call must be {@link #done}.
   */
  public String admit(Principal principal, boolean job) {
    if (principal.binding() == null) {
      return null;
    }
    if (!take(calls, principal.account(), maxCalls)) {
      return refusal(principal, maxCalls, "tool calls", "maxConcurrentCalls");
    }
    if (job && !take(jobs, principal.account(), maxJobs)) {
      release(calls, principal.account());
      return refusal(
          principal, maxJobs, "long calls (chat BI, forecasts, reports)", "maxConcurrentJobs");
    }
    return null;
  }

  /** An admitted call ended. */
  public void done(Principal principal, boolean job) {
    if (principal.binding() == null) {
      return;
    }
    release(calls, principal.account());
    if (job) {
      release(jobs, principal.account());
    }
  }

  private static boolean take(Map<String, AtomicInteger> counts, String account, int max) {
    AtomicInteger count = counts.computeIfAbsent(account, a -> new AtomicInteger());
    if (count.incrementAndGet() > max && max > 0) {
      count.decrementAndGet();
      return false;
    }
    return true;
  }

  private static void release(Map<String, AtomicInteger> counts, String account) {
    AtomicInteger count = counts.get(account);
    if (count != null) {
      count.decrementAndGet();
    }
  }

  private static String refusal(Principal principal, int max, String what, String key) {
    return "account "
        + principal.account()
        + " already has "
        + max
        + " "
        + what
        + " running (auth.limits."
        + key
        + "); wait for one to finish, then call again";
  }
}
