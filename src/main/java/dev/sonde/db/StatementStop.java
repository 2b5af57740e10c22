package dev.sonde.db;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import io.vertx.core.Vertx;

/**
 * Stops one running statement when its time is up or its caller cancels, and afterwards says which
 * of the two ended it, so the caller hears why rather than the engine's own error text.
 */
final class StatementStop {
  private final Vertx vertx;
  private final int timeoutSeconds;
  private final String afterTimeout;
  private final long start = System.nanoTime();
  private volatile boolean timedOut;
  private volatile boolean cancelled;
  private volatile boolean finished;
  private long timer = -1;
  private long graceMillis;
  private Runnable runaway;
  private Runnable unhook = () -> {};

  private StatementStop(Vertx vertx, int timeoutSeconds, String afterTimeout) {
    this.vertx = vertx;
    this.timeoutSeconds = timeoutSeconds;
    this.afterTimeout = afterTimeout;
  }

  /** For a read (a query or an EXPLAIN): a timeout says how to make it cheaper. */
  static StatementStop forRead(Vertx vertx, int timeoutSeconds) {
    return new StatementStop(
        vertx, timeoutSeconds, "; filter, aggregate or add a LIMIT to make it cheaper");
  }

  /** For a write, which is rolled back when it is stopped. */
  static StatementStop forWrite(Vertx vertx, int timeoutSeconds) {
    return new StatementStop(vertx, timeoutSeconds, " (nothing was changed)");
  }

  /**
   * From now on, until {@link #disarm}, the timeout and the call's stop run {@code stop}. After it
   * they do nothing: a cancel request sent then would reach whatever the pooled connection runs
   * next, for another caller. A call stopped already counts as cancelled at once: {@link
   * #refuseIfStopped} then fails before anything runs.
   */
  void arm(Runnable stop, Call call) {
    timer =
        vertx.setTimer(
            timeoutSeconds * 1000L,
            id -> {
              if (!finished) {
                timedOut = true;
                stop.run();
                watch();
              }
            });
    unhook =
        call.onStop(
            () -> {
              if (!finished) {
                cancelled = true;
                stop.run();
                watch();
              }
            });
  }

  /**
   * {@code runaway} runs when a stopped statement has still not ended {@code graceMillis} later:
   * the engine could not interrupt it (DuckDB cannot stop one long function call).
   */
  StatementStop onRunaway(long graceMillis, Runnable runaway) {
    this.graceMillis = graceMillis;
    this.runaway = runaway;
    return this;
  }

  private void watch() {
    Runnable then = runaway;
    if (then != null) {
      vertx.setTimer(
          graceMillis,
          id -> {
            if (!finished) {
              then.run();
            }
          });
    }
  }

  /** What the caller hears about a statement the engine did not stop. */
  CallerException runawayReason(String name) {
    return new CallerException(
        name
            + ": "
            + (timedOut
                ? "the statement ran longer than " + timeoutSeconds + " s"
                : "the statement was cancelled")
            + " and the engine did not stop it within "
            + graceMillis / 1000
            + " s; its connection was discarded and the engine may keep working on it until"
            + " it ends. Do not run it again"
            + afterTimeout);
  }

  /**
   * Fails with the reason when the statement was stopped before it was sent; called where a failure
   * is safe (the connection goes back to its pool either way).
   */
  void refuseIfStopped() {
    if (stopped()) {
      throw reason();
    }
  }

  void disarm() {
    finished = true;
    vertx.cancelTimer(timer);
    unhook.run();
  }

  boolean stopped() {
    return timedOut || cancelled;
  }

  /** Why the statement failed when it was stopped; null when it failed by itself. */
  CallerException reason() {
    if (timedOut) {
      return new CallerException(
          "the statement ran longer than " + timeoutSeconds + " s and was stopped" + afterTimeout);
    }
    if (cancelled) {
      return new CallerException(
          "the statement was cancelled after "
              + (System.nanoTime() - start) / 1_000_000_000
              + " s");
    }
    return null;
  }
}
