package dev.sonde.web;

import dev.sonde.auth.Principal;
import dev.sonde.jobs.Job;
import dev.sonde.jobs.JobEvent;
import dev.sonde.jobs.JobRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The browser's view of jobs: list, detail, cancel, and live steps as server-sent events with
 * {@code Last-Event-ID} replay (also accepted as {@code ?lastEventId=} for a page that reconnects
 * by itself).
 */
public final class JobsApi {
  private final Vertx vertx;
  private final JobRegistry jobs;
  private final long keepAliveMillis;
  private final RequestAuthentication authentication;

  public JobsApi(
      Vertx vertx, JobRegistry jobs, long keepAliveMillis, RequestAuthentication authentication) {
    this.vertx = vertx;
    this.jobs = jobs;
    this.keepAliveMillis = keepAliveMillis;
    this.authentication = authentication;
  }

  void mount(Router router) {
    router.get("/api/jobs").handler(this::list);
    router.get("/api/jobs/events").handler(this::allEvents);
    router.get("/api/jobs/:id").handler(this::detail);
    router.delete("/api/jobs/:id").handler(this::cancel);
    router.get("/api/jobs/:id/events").handler(this::jobEvents);
  }

  private void list(RoutingContext ctx) {
    // read the sequence first: an event racing the listing is then replayed, never lost
    long lastEventId = jobs.lastGlobalSeq();
    JsonArray list = new JsonArray();
    Principal viewer = RequestAuthentication.of(ctx);
    jobs.list().stream().filter(j -> visible(viewer, j)).forEach(j -> list.add(j.summary()));
    json(ctx.response(), 200, new JsonObject().put("jobs", list).put("lastEventId", lastEventId));
  }

  /** An account sees its own jobs, or every account's when its toolsets hold system information. */
  private static boolean visible(Principal viewer, Job job) {
    return job != null && (viewer.seesEveryonesJobs() || viewer.account().equals(job.account()));
  }

  /** The job of the path's id when the viewer may see it, else null. */
  private Job visibleJob(RoutingContext ctx) {
    Job job = jobs.get(ctx.pathParam("id"));
    return visible(RequestAuthentication.of(ctx), job) ? job : null;
  }

  private void detail(RoutingContext ctx) {
    Job job = visibleJob(ctx);
    if (job == null) {
      notFound(ctx);
    } else {
      json(ctx.response(), 200, job.detail());
    }
  }

  private void cancel(RoutingContext ctx) {
    Job job = visibleJob(ctx);
    if (job == null) {
      notFound(ctx);
    } else if (jobs.cancel(job.id(), "cancelled from the jobs API")) {
      json(ctx.response(), 202, new JsonObject().put("cancelled", true).put("job", job.summary()));
    } else {
      json(
          ctx.response(),
          409,
          new JsonObject()
              .put("error", "job " + job.id() + " is already " + job.status().wireName()));
    }
  }

  private void allEvents(RoutingContext ctx) {
    long after = lastEventId(ctx.request());
    boolean lost = after > 0 && after < jobs.oldestGlobalSeq() - 1;
    Principal viewer = RequestAuthentication.of(ctx);
    new JobEventStream(
            vertx,
            ctx.response(),
            jobs::eventsAfter,
            JobEvent::globalSeq,
            () -> authentication.stillSignedIn(viewer),
            event -> viewer.seesEveryonesJobs() || visible(viewer, jobs.get(event.jobId())),
            after)
        .start(JobRegistry.ALL_ADDRESS, keepAliveMillis, lost);
  }

  private void jobEvents(RoutingContext ctx) {
    Job job = visibleJob(ctx);
    if (job == null) {
      notFound(ctx);
      return;
    }
    Principal viewer = RequestAuthentication.of(ctx);
    new JobEventStream(
            vertx,
            ctx.response(),
            job::eventsAfter,
            JobEvent::seq,
            () -> authentication.stillSignedIn(viewer),
            event -> true,
            lastEventId(ctx.request()))
        .start(JobRegistry.ADDRESS_PREFIX + job.id(), keepAliveMillis, false);
  }

  private static long lastEventId(HttpServerRequest request) {
    String value = request.getHeader("Last-Event-ID");
    if (value == null) {
      value = request.getParam("lastEventId");
    }
    try {
      return value == null ? 0 : Math.max(0, Long.parseLong(value.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static void notFound(RoutingContext ctx) {
    json(
        ctx.response(),
        404,
        new JsonObject()
            .put("error", "no job " + ctx.pathParam("id") + "; GET /api/jobs lists them"));
  }

  private static void json(HttpServerResponse response, int status, JsonObject body) {
    response.setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
  }
}
