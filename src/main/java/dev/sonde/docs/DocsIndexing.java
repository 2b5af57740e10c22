package dev.sonde.docs;

import dev.sonde.core.Call;
import dev.sonde.core.CancelledException;
import dev.sonde.jobs.Job;
import dev.sonde.jobs.JobRegistry;
import dev.sonde.tools.CallHeaders;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the docs index in step with its sources: a sync at start and every {@code
 * docs.rescanMinutes}, off the event loop. A sync that indexes many pages runs as a job whose steps
 * reach the dashboard; a sync that changes the catalogue tells clients the resource list changed.
 */
public final class DocsIndexing {
  /** More pages than this to index makes the sync a visible job. */
  static final int JOB_THRESHOLD = 100;

  private static final Logger LOG = LoggerFactory.getLogger(DocsIndexing.class);

  private final Vertx vertx;
  private final DocsLibrary library;
  private final JobRegistry jobs;
  private final WorkerExecutor pool;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile Call current;
  private volatile Future<DocsLibrary.SyncReport> sync = Future.succeededFuture();
  private long timer = -1;

  /** Syncs on {@code pool}, the docs family's own. */
  public DocsIndexing(Vertx vertx, DocsLibrary library, JobRegistry jobs, WorkerExecutor pool) {
    this.vertx = vertx;
    this.library = library;
    this.jobs = jobs;
    this.pool = pool;
  }

  public void start(int rescanMinutes) {
    syncInBackground();
    timer = vertx.setPeriodic(rescanMinutes * 60_000L, id -> syncInBackground());
  }

  /** Stops the rescans and a sync in flight (between pages); completes once it has ended. */
  public Future<Void> stop() {
    vertx.cancelTimer(timer);
    Call running = current;
    if (running != null) {
      running.stop("Sonde is stopping");
    }
    return sync.<Void>mapEmpty().otherwiseEmpty();
  }

  private void syncInBackground() {
    syncNow()
        .onFailure(
            e -> {
              if (!(e instanceof IllegalStateException || e instanceof CancelledException)) {
                LOG.error("documentation index sync failed", e);
              }
            });
  }

  /** One sync off the event loop; fails with IllegalStateException while another is running. */
  Future<DocsLibrary.SyncReport> syncNow() {
    if (!running.compareAndSet(false, true)) {
      return Future.failedFuture(new IllegalStateException("a sync is already running"));
    }
    Call call = Call.background("docs_index", pool);
    current = call;
    sync =
        call.blocking(() -> sync(call))
            .onComplete(
                ar -> {
                  current = null;
                  running.set(false);
                });
    return sync;
  }

  /** One sync; cancelling its job from the job view stops it between pages. */
  private DocsLibrary.SyncReport sync(Call call) throws Exception {
    Job[] job = new Job[1];
    boolean ok = false;
    try {
      DocsLibrary.SyncReport report =
          library.sync(
              (done, total, message) -> {
                if (job[0] == null && done == 0 && total > JOB_THRESHOLD) {
                  job[0] =
                      jobs.start("docs-index-" + UUID.randomUUID(), "docs_index", null, null, call);
                }
                call.checkpoint();
                if (job[0] != null) {
                  job[0].step("index", true, message, done, (double) total, null);
                }
              });
      ok = true;
      LOG.info(
          "documentation index: {} pages indexed, {} removed, {} unchanged in {} ms",
          report.indexed(),
          report.removed(),
          report.unchanged(),
          report.millis());
      if (report.indexed() + report.removed() > 0) {
        vertx.eventBus().publish(CallHeaders.RESOURCES_CHANGED_ADDRESS, new JsonObject());
      }
      return report;
    } finally {
      if (job[0] != null) {
        jobs.finish(job[0], ok, ok ? "finished" : "failed");
      }
    }
  }
}
