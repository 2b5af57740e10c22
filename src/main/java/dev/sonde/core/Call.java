package dev.sonde.core;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.WorkerExecutor;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One call's lifecycle, shared by the tool, its job and every engine step it takes: its deadline,
 * its stop (a cancel from any door, or the deadline) with the hooks that stop its running
 * statements, its progress steps, and the named pool its blocking work runs on. Long loops call
 * {@link #checkpoint}; pure computations deep inside a model, which take no call, call {@link
 * #checkpointHere} and are stopped through the call {@link #blocking} bound to their thread.
 */
public final class Call {
  /** Receives a step of progress: where the work is, and a line for people. */
  public interface Steps {
    Steps NONE = (step, message) -> {};

    void step(String step, String message);
  }

  private static final ThreadLocal<Call> RUNNING_HERE = new ThreadLocal<>();

  private final String name;
  private final String account;
  private final long deadline;
  private final WorkerExecutor pool;
  private final Steps steps;
  private final List<Runnable> hooks = new CopyOnWriteArrayList<>();
  private final CountDownLatch stopLatch = new CountDownLatch(1);
  private final Promise<String> stopped = Promise.promise();
  private volatile String stopReason;

  /**
   * A call named {@code name} (for messages) made for {@code account} (null for Sonde's own work)
   * that must end by {@code deadline} (epoch ms, {@link Long#MAX_VALUE} for none), runs its
   * blocking work on {@code pool} and reports to {@code steps}.
   */
  public Call(String name, String account, long deadline, WorkerExecutor pool, Steps steps) {
    this.name = name;
    this.account = account;
    this.deadline = deadline;
    this.pool = pool;
    this.steps = steps == null ? Steps.NONE : steps;
  }

  /** Sonde's own work (an index sync, a start-up step): no deadline, no progress. */
  public static Call background(String name, WorkerExecutor pool) {
    return new Call(name, null, Long.MAX_VALUE, pool, Steps.NONE);
  }

  /**
   * A call that only runs statements (the ontology bootstrap, a test): no deadline, no progress,
   * and no pool, so {@link #blocking} refuses.
   */
  public static Call statementsOnly(String name) {
    return new Call(name, null, Long.MAX_VALUE, null, Steps.NONE);
  }

  /**
   * A part of this call that can also be stopped alone (an EXPLAIN with its own time limit): it
   * stops when this call stops, shares its deadline, pool and steps, and once stopped (also when it
   * is done) no longer hangs on this call.
   */
  public Call part(String partName) {
    Call part = new Call(partName, account, deadline, pool, steps);
    part.onStop(onStop(() -> part.stop(stopReason)));
    return part;
  }

  public String name() {
    return name;
  }

  /** The account the call works for; null for Sonde's own work. */
  public String account() {
    return account;
  }

  /** Epoch milliseconds by which the call must answer. */
  public long deadline() {
    return deadline;
  }

  public boolean isStopped() {
    return stopReason != null;
  }

  /** Why the call was stopped; null while it runs. */
  public String stopReason() {
    return stopReason;
  }

  /** Completes with the reason when the call is stopped. */
  public Future<String> whenStopped() {
    return stopped.future();
  }

  /**
   * Stops the call: every hook runs once, now, and {@link #checkpoint} fails from here on. A second
   * stop keeps the first reason.
   */
  public void stop(String reason) {
    synchronized (this) {
      if (stopReason != null) {
        return;
      }
      stopReason = reason;
    }
    stopLatch.countDown();
    hooks.forEach(Call::runQuietly);
    stopped.tryComplete(reason);
  }

  /**
   * Runs {@code hook} when the call stops (at once if it has); the returned action removes it, for
   * a statement that ended, so a later stop cannot reach what its connection runs next.
   */
  public Runnable onStop(Runnable hook) {
    hooks.add(hook);
    if (isStopped()) {
      hooks.remove(hook);
      runQuietly(hook);
    }
    return () -> hooks.remove(hook);
  }

  /** Fails with {@link CancelledException} once the call is stopped or past its deadline. */
  public void checkpoint() {
    if (stopReason == null && System.currentTimeMillis() > deadline) {
      stop(name + " passed its deadline and was stopped");
    }
    if (stopReason != null) {
      throw new CancelledException(stopReason);
    }
  }

  /** {@link #checkpoint} of the call whose {@link #blocking} work runs on this thread, if any. */
  public static void checkpointHere() {
    Call call = RUNNING_HERE.get();
    if (call != null) {
      call.checkpoint();
    }
  }

  /** Sleeps, waking early when the call stops; false when it stopped. */
  public boolean sleep(long millis) throws InterruptedException {
    return !stopLatch.await(millis, TimeUnit.MILLISECONDS);
  }

  /** A step of progress. */
  public void step(String step, String message) {
    steps.step(step, message);
  }

  /**
   * Runs {@code work} on the call's pool, unordered, unless the call has stopped first; the work
   * sees {@link #checkpointHere} bound to this call.
   */
  public <T> Future<T> blocking(Callable<T> work) {
    if (isStopped()) {
      return Future.failedFuture(new CancelledException(stopReason));
    }
    if (pool == null) {
      return Future.failedFuture(new IllegalStateException(name + " has no worker pool"));
    }
    return pool.executeBlocking(
        () -> {
          checkpoint();
          Call outer = RUNNING_HERE.get();
          RUNNING_HERE.set(this);
          try {
            return work.call();
          } finally {
            RUNNING_HERE.set(outer);
          }
        },
        false);
  }

  private static void runQuietly(Runnable hook) {
    try {
      hook.run();
    } catch (RuntimeException e) {
      // one hook failing (a statement already closed) must not keep the others from running
      org.slf4j.LoggerFactory.getLogger(Call.class).debug("a stop hook failed", e);
    }
  }
}
