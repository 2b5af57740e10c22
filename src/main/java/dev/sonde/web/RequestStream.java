package dev.sonde.web;

import dev.sonde.mcp.ClientChannel;
import dev.sonde.mcp.JsonRpc;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer to one modern (2026-07-28) POST: plain JSON, or an event stream from the first
 * notification the request sends before its result (progress, its log lines). The stream belongs to
 * this request alone: nothing else is sent on it, it is not resumable, and closing it cancels the
 * request.
 */
final class RequestStream implements ClientChannel {
  private final Vertx vertx;
  private final HttpServerResponse response;
  private final long keepAliveMillis;
  private final List<Runnable> closeActions = new ArrayList<>();
  private boolean streaming;
  private boolean completed;

  /** The client closed the stream before its answer: a cancellation. */
  private boolean left;

  private long keepAliveTimer = -1;

  RequestStream(Vertx vertx, HttpServerResponse response, long keepAliveMillis) {
    this.vertx = vertx;
    this.response = response;
    this.keepAliveMillis = keepAliveMillis;
    response.closeHandler(v -> connectionClosed());
  }

  private synchronized void connectionClosed() {
    stopKeepAlive();
    if (!completed) {
      completed = true;
      left = true;
      closeActions.forEach(Runnable::run);
    }
  }

  @Override
  public synchronized void send(JsonObject message) {
    if (completed || response.closed()) {
      return;
    }
    if (!streaming) {
      streaming = true;
      response
          .setStatusCode(200)
          .setChunked(true)
          .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream")
          .putHeader("Cache-Control", "no-cache, no-transform")
          .putHeader("X-Accel-Buffering", "no");
      keepAliveTimer = vertx.setPeriodic(keepAliveMillis, t -> keepAlive());
    }
    // a client that stops reading loses notifications, never the result
    if (!response.writeQueueFull()) {
      response.write(event(message));
    }
  }

  private synchronized void keepAlive() {
    if (!completed && !response.closed() && !response.writeQueueFull()) {
      response.write(":\n\n");
    }
  }

  @Override
  public synchronized void onClose(Runnable action) {
    if (left) {
      // the client left before the action was registered: it must still run
      action.run();
      return;
    }
    closeActions.add(action);
  }

  /** Sends the request's answer (null: nothing, it was cancelled) and ends the exchange. */
  synchronized void complete(JsonObject answer) {
    if (completed) {
      return;
    }
    completed = true;
    stopKeepAlive();
    if (response.closed()) {
      return;
    }
    if (streaming) {
      response.end(answer == null ? "" : event(answer));
    } else if (answer == null) {
      response.setStatusCode(204).end();
    } else {
      response
          .setStatusCode(status(answer))
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(answer.toBuffer());
    }
  }

  /**
   * The HTTP status of a modern answer: the revision's own errors are 400 (so a dual-era client
   * knows it met a modern server), an unknown method 404, anything else 200 with its JSON-RPC body.
   */
  static int status(JsonObject answer) {
    if (!(answer.getValue("error") instanceof JsonObject error)) {
      return 200;
    }
    int code = error.getInteger("code", 0);
    return switch (code) {
      case JsonRpc.METHOD_NOT_FOUND -> 404;
      case JsonRpc.HEADER_MISMATCH,
          JsonRpc.MISSING_CLIENT_CAPABILITY,
          JsonRpc.UNSUPPORTED_PROTOCOL_VERSION,
          JsonRpc.PARSE_ERROR,
          JsonRpc.INVALID_REQUEST ->
          400;
      default -> 200;
    };
  }

  private void stopKeepAlive() {
    if (keepAliveTimer >= 0) {
      vertx.cancelTimer(keepAliveTimer);
      keepAliveTimer = -1;
    }
  }

  private static String event(JsonObject message) {
    return "event: message\ndata: " + message.encode() + "\n\n";
  }
}
