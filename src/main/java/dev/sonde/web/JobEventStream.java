package dev.sonde.web;

import dev.sonde.jobs.JobEvent;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Job steps to a browser as server-sent events. The stream reads from the job history with its own
 * cursor, so a slow browser never makes the server queue without bound: it waits for the connection
 * to drain, then reads on from where it was.
 */
final class JobEventStream {
  private final Vertx vertx;
  private final HttpServerResponse response;
  private final LongFunction<List<JobEvent>> eventsAfter;
  private final ToLongFunction<JobEvent> idOf;
  private final BooleanSupplier allowed;
  private final Predicate<JobEvent> shown;
  private long cursor;
  private boolean waitingForDrain;
  private MessageConsumer<JsonObject> consumer;
  private long keepAlive;

  JobEventStream(
      Vertx vertx,
      HttpServerResponse response,
      LongFunction<List<JobEvent>> eventsAfter,
      ToLongFunction<JobEvent> idOf,
      BooleanSupplier allowed,
      Predicate<JobEvent> shown,
      long cursor) {
    this.vertx = vertx;
    this.response = response;
    this.eventsAfter = eventsAfter;
    this.idOf = idOf;
    this.allowed = allowed;
    this.shown = shown;
    this.cursor = cursor;
  }

  /** Starts streaming; {@code resetFirst} tells the browser it missed events and must reload. */
  void start(String address, long keepAliveMillis, boolean resetFirst) {
    response
        .setChunked(true)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-cache, no-transform")
        .putHeader("X-Accel-Buffering", "no");
    response.write("retry: 2000\n\n");
    if (resetFirst) {
      response.write("event: reset\ndata: {}\n\n");
    }
    consumer = vertx.eventBus().consumer(address, m -> flush());
    keepAlive =
        vertx.setPeriodic(
            keepAliveMillis,
            t -> {
              if (!allowed.getAsBoolean()) {
                stop();
                response.end();
              } else if (!response.writeQueueFull()) {
                response.write(": keep-alive\n\n");
              }
            });
    response.closeHandler(v -> stop());
    flush();
  }

  private void stop() {
    consumer.unregister();
    vertx.cancelTimer(keepAlive);
  }

  private void flush() {
    if (waitingForDrain || response.closed()) {
      return;
    }
    if (!allowed.getAsBoolean()) {
      // the viewer's token was revoked or expired: the stream ends, a reconnect must sign in
      stop();
      response.end();
      return;
    }
    for (JobEvent event : eventsAfter.apply(cursor)) {
      if (response.writeQueueFull()) {
        waitingForDrain = true;
        response.drainHandler(
            v -> {
              waitingForDrain = false;
              flush();
            });
        return;
      }
      long id = idOf.applyAsLong(event);
      // an event the viewer may not see is passed over once, never read again on the next flush
      if (shown.test(event)) {
        response.write("id: " + id + "\nevent: step\ndata: " + event.toJson().encode() + "\n\n");
      }
      cursor = id;
    }
  }
}
