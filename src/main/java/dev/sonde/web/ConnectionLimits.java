package dev.sonde.web;

import dev.sonde.config.SondeConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What clients may hold open: connections per peer and in all, a deadline for each request head
 * (the first on a connection within the head timeout, each after an answer within the idle timeout,
 * however its bytes trickle in), one for each request body, and the bytes of bodies and WebSocket
 * messages buffered at once. Sockets that send too little, too slowly or too much cannot pile up;
 * idle connections are closed by the server's idle timeout. One instance is shared by every
 * listener and the WebSocket transport.
 */
public final class ConnectionLimits {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimits.class);
  private static final String LOOPBACK = "loopback";
  private final Map<String, Integer> openByPeer = new ConcurrentHashMap<>();
  private final Map<HttpConnection, Held> held = new ConcurrentHashMap<>();
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong buffered = new AtomicLong();
  private final AtomicLong lastWarning = new AtomicLong();
  private final int maxPerPeer;
  private final int maxConnections;
  private final long maxBuffered;
  private final long headerMillis;
  private final long nextHeadMillis;
  private final long bodyMillis;

  /**
   * One counted connection: its peer, the listener it runs on, the request it is answering (null
   * while it waits for a head), when that request's body must be whole, and when its next head must
   * be whole (-1 while a request is being answered).
   */
  private static final class Held {
    final String peer;
    final Map<HttpConnection, Held> onItsLoop;
    HttpServerRequest current;
    long bodyDeadline;
    long headDeadline = -1;

    Held(String peer, Map<HttpConnection, Held> onItsLoop) {
      this.peer = peer;
      this.onItsLoop = onItsLoop;
    }

    void awaitHead(long now, long millis) {
      current = null;
      headDeadline = now + millis * 1_000_000;
    }
  }

  public ConnectionLimits(SondeConfig.ServerConfig server) {
    this.maxPerPeer = server.maxConnectionsPerPeer();
    this.maxConnections = server.maxConnections();
    // a quarter of the heap unless configured: what a crowd of half-sent bodies may take
    this.maxBuffered =
        server.maxBufferedBytes() > 0
            ? server.maxBufferedBytes()
            : Runtime.getRuntime().maxMemory() / 4;
    this.headerMillis = server.headerTimeoutSeconds() * 1000L;
    // a kept-alive connection may wait as long as the idle limit for its next request, but that
    // head must be whole by then: bytes trickling in do not push the deadline back
    this.nextHeadMillis = server.idleTimeoutSeconds() * 1000L;
    this.bodyMillis = server.bodyTimeoutSeconds() * 1000L;
  }

  long bodyMillis() {
    return bodyMillis;
  }

  /**
   * Reserves {@code bytes} of buffer for a body or message that is still arriving; false when the
   * server already holds its limit, and the caller refuses the request.
   */
  boolean reserve(long bytes) {
    if (buffered.addAndGet(bytes) > maxBuffered) {
      buffered.addAndGet(-bytes);
      warn("refused a request body: {} bytes are buffered (server.maxBufferedBytes)", maxBuffered);
      return false;
    }
    return true;
  }

  void release(long bytes) {
    buffered.addAndGet(-bytes);
  }

  /** Gives a connection's places back once, whichever of its close signals comes first. */
  void closed(HttpConnection connection) {
    Held state = held.remove(connection);
    if (state != null) {
      openByPeer.computeIfPresent(state.peer, (k, count) -> count <= 1 ? null : count - 1);
      open.decrementAndGet();
      state.onItsLoop.remove(connection);
    }
  }

  /** The handlers of one listener instance; its connections all run on its event loop. */
  OnLoop onLoop(Vertx vertx) {
    return new OnLoop(vertx);
  }

  final class OnLoop {
    // heads and bodies are checked by one sweep a second, not a timer or handler per request: the
    // hot path only notes the request
    private final Map<HttpConnection, Held> connections = new HashMap<>();

    private OnLoop(Vertx vertx) {
      vertx.setPeriodic(Math.min(1000, Math.min(headerMillis, bodyMillis)), id -> sweep());
    }

    void opened(HttpConnection connection) {
      String peer = peerOf(connection.remoteAddress());
      if (openByPeer.merge(peer, 1, Integer::sum) > maxPerPeer) {
        openByPeer.computeIfPresent(peer, (k, count) -> count <= 1 ? null : count - 1);
        warn("refused connections from {}: it holds server.maxConnectionsPerPeer", peer);
        connection.close();
        return;
      }
      if (open.incrementAndGet() > maxConnections) {
        open.decrementAndGet();
        openByPeer.computeIfPresent(peer, (k, count) -> count <= 1 ? null : count - 1);
        warn("refused a connection: the server holds {} (server.maxConnections)", maxConnections);
        connection.close();
        return;
      }
      Held state = new Held(peer, connections);
      held.put(connection, state);
      connections.put(connection, state);
      // an upgraded WebSocket never fires this; the transport reports its close instead
      connection.closeHandler(v -> closed(connection));
      state.awaitHead(System.nanoTime(), headerMillis);
    }

    /**
     * The head has arrived; a body the request declares must follow within its deadline, and once
     * its answer is out the connection waits for a head again. A WebSocket upgrade is the
     * transport's to time.
     */
    void requestArrived(HttpServerRequest request) {
      Held state = connections.get(request.connection());
      if (state != null) {
        state.headDeadline = -1;
        if (!request.canUpgradeToWebSocket()) {
          // pipelined requests are answered in order: the last one's end is the connection's
          state.current = request;
          state.bodyDeadline = System.nanoTime() + bodyMillis * 1_000_000;
        }
      }
    }

    /**
     * Closes connections whose head or body is late; a connection whose answer went out since the
     * last sweep starts waiting for its next head (its deadline up to one sweep late).
     */
    private void sweep() {
      long now = System.nanoTime();
      List<HttpConnection> late = new ArrayList<>();
      connections.forEach(
          (connection, state) -> {
            HttpServerRequest request = state.current;
            if (request == null) {
              if (state.headDeadline >= 0 && now - state.headDeadline > 0) {
                late.add(connection);
              }
            } else if (!request.isEnded()) {
              if (now - state.bodyDeadline > 0) {
                bodyTooLate(request);
                late.add(connection);
              }
            } else if (request.response().ended()) {
              state.awaitHead(now, nextHeadMillis);
            }
          });
      late.forEach(HttpConnection::close);
    }

    private void bodyTooLate(HttpServerRequest request) {
      if (!request.response().headWritten()) {
        request
            .response()
            .setStatusCode(408)
            .putHeader(HttpHeaders.CONNECTION, "close")
            .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
            .end("the request body did not arrive in time");
      }
    }
  }

  /** One line a minute at most: a peer that keeps knocking must not fill the log. */
  private void warn(String message, Object detail) {
    long now = System.currentTimeMillis();
    long last = lastWarning.get();
    if (now - last > 60_000 && lastWarning.compareAndSet(last, now)) {
      LOG.warn(message, detail);
    }
  }

  /**
   * Whom a connection counts against: every loopback address is one peer (a local process can send
   * from any of 127/8), an IPv6 client its /64, an IPv4 client its address.
   */
  static String peerOf(SocketAddress address) {
    String host = address == null ? null : address.hostAddress();
    if (host == null) {
      return "unknown";
    }
    String bare = host.startsWith("::ffff:") ? host.substring(7) : host;
    if (bare.startsWith("127.") || bare.equals("::1") || bare.equals("0:0:0:0:0:0:0:1")) {
      return LOOPBACK;
    }
    if (bare.indexOf(':') >= 0) {
      String[] groups = bare.split(":", -1);
      return groups.length >= 4
          ? String.join(":", groups[0], groups[1], groups[2], groups[3]) + "::/64"
          : bare;
    }
    return bare;
  }
}
