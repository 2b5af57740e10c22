package dev.sonde.web;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One MCP server-sent-event stream (a POST response or the GET stream) that outlives its HTTP
 * connection: events are kept (bounded) so a client that reconnects with {@code Last-Event-ID} gets
 * what it missed, and writing waits for the connection to drain instead of queueing without bound.
 */
final class SseStream {
  private final Vertx vertx;
  private final String id;
  private final int limit;
  private final long keepAliveMillis;
  private final boolean priming;
  private final Deque<String> frames = new ArrayDeque<>();
  private long lastSeq;
  private HttpServerResponse response;
  private long written;
  private long keepAliveTimer = -1;
  private boolean finished;

  SseStream(Vertx vertx, String id, int limit, long keepAliveMillis, boolean priming) {
    this.vertx = vertx;
    this.id = id;
    this.limit = limit;
    this.keepAliveMillis = keepAliveMillis;
    this.priming = priming;
  }

  String id() {
    return id;
  }

  synchronized boolean finished() {
    return finished;
  }

  synchronized void send(JsonObject message) {
    if (finished) {
      return;
    }
    append(message);
    flush();
  }

  /** Sends the last message (the response) and ends the stream once it is written. */
  synchronized void finish(JsonObject message) {
    if (finished) {
      return;
    }
    if (message != null) {
      append(message);
    }
    finished = true;
    flush();
  }

  /**
   * Makes {@code target} the stream's connection, replaying every event after {@code afterSeq};
   * {@code onClose} runs if the client goes away.
   */
  synchronized void attach(
      HttpServerResponse target, long afterSeq, String sessionId, Runnable onClose) {
    detach(true);
    response = target;
    written = Math.max(afterSeq, lastSeq - frames.size());
    target
        .setChunked(true)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-cache, no-transform")
        .putHeader("X-Accel-Buffering", "no")
        .putHeader("Mcp-Session-Id", sessionId);
    target.write(
        priming ? "id: " + id + "_" + afterSeq + "\nretry: 2000\ndata: \n\n" : "retry: 2000\n\n");
    target.closeHandler(
        v -> {
          connectionClosed(target);
          onClose.run();
        });
    keepAliveTimer = vertx.setPeriodic(keepAliveMillis, t -> keepAlive(target));
    flush();
  }

  private synchronized void keepAlive(HttpServerResponse target) {
    if (target == response && !target.writeQueueFull()) {
      target.write(": keep-alive\n\n");
    }
  }

  private synchronized void connectionClosed(HttpServerResponse target) {
    if (target == response) {
      detach(false);
    }
  }

  private void detach(boolean end) {
    if (keepAliveTimer >= 0) {
      vertx.cancelTimer(keepAliveTimer);
      keepAliveTimer = -1;
    }
    if (response != null && end && !response.ended()) {
      response.end();
    }
    response = null;
  }

  private void append(JsonObject message) {
    frames.addLast(
        "id: " + id + "_" + (++lastSeq) + "\nevent: message\ndata: " + message.encode() + "\n\n");
    if (frames.size() > limit) {
      frames.removeFirst();
    }
  }

  private void flush() {
    if (response == null) {
      return;
    }
    long firstSeq = lastSeq - frames.size() + 1;
    for (String frame : frames) {
      long seq = firstSeq++;
      if (seq <= written) {
        continue;
      }
      if (response.writeQueueFull()) {
        HttpServerResponse waiting = response;
        waiting.drainHandler(v -> drained(waiting));
        return;
      }
      response.write(frame);
      written = seq;
    }
    if (finished) {
      detach(true);
    }
  }

  private synchronized void drained(HttpServerResponse target) {
    if (target == response) {
      flush();
    }
  }
}
