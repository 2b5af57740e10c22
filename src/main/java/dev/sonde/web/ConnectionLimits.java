package dev.sonde.web;

import dev.sonde.config.SondeConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one peer may hold open: a cap on its connections (shared by every listener instance), a
 * deadline for the first request head of a connection and one for each request body, so sockets
 * that send too little cannot pile up. Idle connections are closed by the server's idle timeout.
 */
public final class ConnectionLimits {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimits.class);
  private final Map<String, Integer> openByPeer = new ConcurrentHashMap<>();
  private final AtomicLong lastWarning = new AtomicLong();
  private final int maxPerPeer;
  private final long headerMillis;
  private final long bodyMillis;

  public ConnectionLimits(SondeConfig.ServerConfig server) {
    this.maxPerPeer = server.maxConnectionsPerPeer();
    this.headerMillis = server.headerTimeoutSeconds() * 1000L;
    this.bodyMillis = server.bodyTimeoutSeconds() * 1000L;
  }

  /** Connections open from one peer address now. */
  public int open(String peer) {
    return openByPeer.getOrDefault(peer, 0);
  }

  /** The handlers of one listener instance; its connections all run on its event loop. */
  OnLoop onLoop(Vertx vertx) {
    return new OnLoop(vertx);
  }

  final class OnLoop {
    private final Vertx vertx;
    private final Map<HttpConnection, Long> awaitingHead = new HashMap<>();
    // bodies still arriving, oldest first: one sweep a second, not a timer per request
    private final Map<HttpServerRequest, Long> awaitingBody = new LinkedHashMap<>();

    private OnLoop(Vertx vertx) {
      this.vertx = vertx;
      vertx.setPeriodic(Math.min(1000, bodyMillis), id -> closeLateBodies());
    }

    void opened(HttpConnection connection) {
      String peer = peerOf(connection.remoteAddress());
      if (openByPeer.merge(peer, 1, Integer::sum) > maxPerPeer) {
        release(peer);
        warnRefused(peer);
        connection.close();
        return;
      }
      long timer =
          vertx.setTimer(
              headerMillis,
              id -> {
                awaitingHead.remove(connection);
                connection.close();
              });
      awaitingHead.put(connection, timer);
      connection.closeHandler(
          v -> {
            release(peer);
            Long pending = awaitingHead.remove(connection);
            if (pending != null) {
              vertx.cancelTimer(pending);
            }
          });
    }

    /** The head has arrived; a body the request declares must follow within its deadline. */
    void requestArrived(HttpServerRequest request) {
      Long pending = awaitingHead.remove(request.connection());
      if (pending != null) {
        vertx.cancelTimer(pending);
      }
      if (!request.isEnded() && declaresBody(request)) {
        awaitingBody.put(request, System.nanoTime() + bodyMillis * 1_000_000);
        request.end().onComplete(v -> awaitingBody.remove(request));
      }
    }

    private void closeLateBodies() {
      long now = System.nanoTime();
      Iterator<Map.Entry<HttpServerRequest, Long>> oldestFirst = awaitingBody.entrySet().iterator();
      while (oldestFirst.hasNext()) {
        Map.Entry<HttpServerRequest, Long> entry = oldestFirst.next();
        if (entry.getValue() - now > 0) {
          return;
        }
        oldestFirst.remove();
        HttpServerRequest request = entry.getKey();
        if (!request.isEnded()) {
          if (!request.response().headWritten()) {
            request
                .response()
                .setStatusCode(408)
                .putHeader(HttpHeaders.CONNECTION, "close")
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
                .end("the request body did not arrive in time");
          }
          request.connection().close();
        }
      }
    }
  }

  /** One line a minute at most: a peer that keeps knocking must not fill the log. */
  private void warnRefused(String peer) {
    long now = System.currentTimeMillis();
    long last = lastWarning.get();
    if (now - last > 60_000 && lastWarning.compareAndSet(last, now)) {
      LOG.warn(
          "refused connections from {}: it holds {} (server.maxConnectionsPerPeer)",
          peer,
          maxPerPeer);
    }
  }

  private void release(String peer) {
    openByPeer.computeIfPresent(peer, (k, count) -> count <= 1 ? null : count - 1);
  }

  private static boolean declaresBody(HttpServerRequest request) {
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    return (length != null && !length.trim().equals("0"))
        || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
  }

  private static String peerOf(SocketAddress address) {
    return address == null || address.hostAddress() == null ? "unknown" : address.hostAddress();
  }
}
