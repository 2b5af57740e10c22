package dev.sonde.web;

import dev.sonde.auth.Principal;
import dev.sonde.config.SondeConfig;
import dev.sonde.mcp.ClientChannel;
import dev.sonde.mcp.JsonRpc;
import dev.sonde.mcp.McpException;
import dev.sonde.mcp.McpServer;
import dev.sonde.mcp.ProtocolVersions;
import dev.sonde.mcp.RequestMeta;
import dev.sonde.mcp.Session;
import dev.sonde.mcp.WireJson;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP Streamable HTTP at one endpoint: POST carries one message and answers with JSON, upgraded to
 * an event stream when the call sends anything before its result; GET opens (or, with {@code
 * Last-Event-ID}, resumes) a stream; DELETE ends the session.
 */
public final class StreamableHttpTransport {
  public static final String PATH = "/mcp";
  private static final CharSequence SESSION_HEADER = HttpHeaders.createOptimized("Mcp-Session-Id");
  private static final CharSequence PROTOCOL_HEADER =
      HttpHeaders.createOptimized("MCP-Protocol-Version");
  private static final CharSequence JSON = HttpHeaders.createOptimized("application/json");
  private static final int STREAM_LIMIT = 1000;
  private static final int STREAMS_KEPT = 32;
  private static final String TRANSPORT = "streamable-http";
  private static final Logger LOG = LoggerFactory.getLogger(StreamableHttpTransport.class);

  private final Vertx vertx;
  private final McpServer server;
  private final SondeConfig config;
  private final ConnectionLimits limits;
  private final Map<String, HttpSessionStreams> streams = new ConcurrentHashMap<>();

  public StreamableHttpTransport(
      Vertx vertx, McpServer server, SondeConfig config, ConnectionLimits limits) {
    this.vertx = vertx;
    this.server = server;
    this.config = config;
    this.limits = limits;
    server.transportStarted(TRANSPORT);
  }

  /** Handles a request of {@code principal} to {@link #PATH} (the hot path skips the router). */
  void handle(HttpServerRequest request, Principal principal) {
    if (!"POST".equals(request.method().name())
        && ProtocolVersions.isModern(request.getHeader(PROTOCOL_HEADER))) {
      plain(request.response(), 405, "2026-07-28 has no GET or DELETE: every message is a POST");
      return;
    }
    switch (request.method().name()) {
      case "POST" ->
          readBody(request)
              .onSuccess(body -> guarded(request, () -> post(request, principal, body)));
      case "GET" -> get(request, principal);
      case "DELETE" -> delete(request, principal);
      default -> plain(request.response(), 405, "use POST, GET or DELETE");
    }
  }

  /** A bug costs its request a 500 and a log line; it never leaves the request hanging. */
  private static void guarded(HttpServerRequest request, Runnable work) {
    try {
      work.run();
    } catch (RuntimeException e) {
      LOG.error("MCP request failed", e);
      if (!request.response().headWritten()) {
        json(
            request.response(), 500, JsonRpc.error(null, JsonRpc.INTERNAL_ERROR, "internal error"));
      }
    }
  }

  /**
   * The whole body, or a 413 answer once it grows past the configured limit. The buffer grows with
   * the bytes that arrive: a declared length reserves nothing.
   */
  private Future<Buffer> readBody(HttpServerRequest request) {
    int limit = config.server().maxRequestBytes();
    Promise<Buffer> body = Promise.promise();
    long declared = declaredLength(request);
    if (declared > limit) {
      tooLarge(request, limit);
      return body.future();
    }
    Buffer buffer = Buffer.buffer();
    request.handler(
        chunk -> {
          if (body.future().isComplete()) {
            return;
          }
          if (buffer.length() + chunk.length() > limit) {
            if (body.tryFail("too large")) {
              tooLarge(request, limit);
            }
          } else if (!limits.reserve(chunk.length())) {
            if (body.tryFail("busy")) {
              refuse(request, 503, "the server is holding its limit of unfinished requests; retry");
            }
          } else {
            buffer.appendBuffer(chunk);
          }
        });
    request.endHandler(v -> body.tryComplete(buffer));
    request.exceptionHandler(body::tryFail);
    request.response().closeHandler(v -> body.tryFail("the connection closed"));
    // what this body reserved is given back once it is whole, refused or gone
    return body.future().onComplete(v -> limits.release(buffer.length()));
  }

  /** The Content-Length, or -1 when absent (chunked) or unreadable; the size check still holds. */
  private static long declaredLength(HttpServerRequest request) {
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    try {
      return length == null ? -1 : Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void tooLarge(HttpServerRequest request, int limit) {
    refuse(request, 413, "request body over " + limit + " bytes");
  }

  /** Answers before the body is read, and closes: the rest of it will not be read. */
  private static void refuse(HttpServerRequest request, int status, String message) {
    request
        .response()
        .setStatusCode(status)
        .putHeader("Connection", "close")
        .putHeader("Content-Type", "application/json")
        .end(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, message).encode())
        .onComplete(v -> request.connection().close());
  }

  private void post(HttpServerRequest request, Principal principal, Buffer body) {
    HttpServerResponse response = request.response();
    if (!isJson(request.getHeader(HttpHeaders.CONTENT_TYPE))) {
      rpcError(response, 415, JsonRpc.INVALID_REQUEST, "Content-Type must be application/json");
      return;
    }
    String accept = request.getHeader(HttpHeaders.ACCEPT);
    if (accept != null
        && !(accept.contains("application/json")
            || accept.contains("text/event-stream")
            || accept.contains("*/*"))) {
      rpcError(
          response,
          406,
          JsonRpc.INVALID_REQUEST,
          "Accept must include application/json and text/event-stream");
      return;
    }
    JsonObject message;
    if (startsWithBracket(body)) {
      rpcError(
          response,
          400,
          JsonRpc.INVALID_REQUEST,
          "JSON-RPC batches are not supported; send one message per request");
      return;
    }
    try {
      message = WireJson.object(body.getBytes());
    } catch (WireJson.Invalid e) {
      rpcError(response, 400, JsonRpc.PARSE_ERROR, e.getMessage());
      return;
    }
    String version = request.getHeader(PROTOCOL_HEADER);
    if (ProtocolVersions.isModern(version) || RequestMeta.isModern(message)) {
      modernPost(request, principal, message);
      return;
    }
    if (version != null && !ProtocolVersions.isSupported(version)) {
      rpcError(
          response,
          400,
          JsonRpc.INVALID_REQUEST,
          "unsupported MCP-Protocol-Version "
              + version
              + "; use one of "
              + ProtocolVersions.SUPPORTED);
      return;
    }
    Session session;
    boolean initialize = "initialize".equals(message.getValue("method"));
    if (initialize) {
      try {
        session = openSession(addressOf(request), principal);
      } catch (McpException e) {
        rpcError(response, 503, e.code(), e.getMessage());
        return;
      }
    } else {
      session = session(request, response, principal);
      if (session == null) {
        return;
      }
    }
    if (initialize) {
      response.putHeader(SESSION_HEADER, session.id());
    }
    if (!JsonRpc.isRequest(message)) {
      server
          .handle(session, message, session.standalone())
          .onSuccess(
              error -> {
                if (error == null) {
                  response.setStatusCode(202).end();
                } else {
                  json(response, 400, error);
                }
              });
      return;
    }
    PostExchange exchange = new PostExchange(response, session);
    server
        .handle(session, message, exchange)
        .onSuccess(
            result -> {
              if (initialize && result != null && result.containsKey("error")) {
                server.closeSession(session);
              }
              exchange.complete(result);
            });
  }

  /**
   * A 2026-07-28 message: no session, headers that must agree with the body, and an answer scoped
   * to this request. A notification is accepted and acted on by nothing here (cancelling is closing
   * the request's stream).
   */
  private void modernPost(HttpServerRequest request, Principal principal, JsonObject message) {
    HttpServerResponse response = request.response();
    if (!JsonRpc.isRequest(message)) {
      response.setStatusCode(202).end();
      return;
    }
    Object id = message.getValue("id");
    String missing =
        RequestMeta.missingKey(message.getValue("params") instanceof JsonObject p ? p : null);
    if (missing != null) {
      json(
          response,
          400,
          JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "params._meta needs \"" + missing + "\""));
      return;
    }
    String mismatch = McpRequestHeaders.mismatch(request, message, server::paramHeaders);
    if (mismatch != null) {
      json(
          response,
          400,
          JsonRpc.error(id, JsonRpc.HEADER_MISMATCH, "Header mismatch: " + mismatch));
      return;
    }
    RequestStream stream =
        new RequestStream(vertx, response, config.server().keepAliveSeconds() * 1000L);
    server.handleStateless(principal, TRANSPORT, message, stream).onSuccess(stream::complete);
  }

  /** {@code application/json}, with parameters such as a charset, and nothing else. */
  private static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return type.trim().equalsIgnoreCase("application/json");
  }

  /** The exact address a request came from, the credential an HTTP session is bound to. */
  private static String addressOf(HttpServerRequest request) {
    return request.remoteAddress() == null ? "" : request.remoteAddress().hostAddress();
  }

  private static boolean startsWithBracket(Buffer body) {
    for (int i = 0; i < body.length(); i++) {
      byte b = body.getByte(i);
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return b == '[';
      }
    }
    return false;
  }

  private void get(HttpServerRequest request, Principal principal) {
    HttpServerResponse response = request.response();
    String accept = request.getHeader(HttpHeaders.ACCEPT);
    if (accept == null || !accept.contains("text/event-stream")) {
      plain(response, 405, "GET opens an event stream: send Accept: text/event-stream");
      return;
    }
    Session session = session(request, response, principal);
    if (session == null) {
      return;
    }
    HttpSessionStreams state = streams.get(session.id());
    String lastEventId = request.getHeader("Last-Event-ID");
    SseStream stream = state.standalone;
    long after = 0;
    if (lastEventId != null && lastEventId.lastIndexOf('_') > 0) {
      int cut = lastEventId.lastIndexOf('_');
      SseStream resumed = state.find(lastEventId.substring(0, cut));
      if (resumed != null) {
        stream = resumed;
        try {
          after = Long.parseLong(lastEventId.substring(cut + 1));
        } catch (NumberFormatException e) {
          after = 0;
        }
      }
    }
    response.setStatusCode(200);
    stream.attach(response, after, session.id(), () -> {});
  }

  private void delete(HttpServerRequest request, Principal principal) {
    Session session = session(request, request.response(), principal);
    if (session != null) {
      server.closeSession(session);
      request.response().setStatusCode(204).end();
    }
  }

  private Session openSession(String address, Principal principal) {
    Session session = server.openSession(TRANSPORT, principal);
    HttpSessionStreams state = new HttpSessionStreams(newStream("s", true), address);
    streams.put(session.id(), state);
    session.standalone(state.standalone::send);
    session.onClose(
        () -> {
          HttpSessionStreams removed = streams.remove(session.id());
          if (removed != null) {
            removed.standalone.finish(null);
          }
        });
    return session;
  }

  private SseStream newStream(String id, boolean priming) {
    return new SseStream(
        vertx, id, STREAM_LIMIT, config.server().keepAliveSeconds() * 1000L, priming);
  }

  /**
   * The request's session, or null after answering 400 (no id) or 404 (unknown id, or one created
   * by another principal or from another address: a session id alone proves nothing).
   */
  private Session session(
      HttpServerRequest request, HttpServerResponse response, Principal principal) {
    String id = request.getHeader(SESSION_HEADER);
    if (id == null) {
      rpcError(
          response,
          400,
          JsonRpc.INVALID_REQUEST,
          "missing Mcp-Session-Id header; send initialize first");
      return null;
    }
    HttpSessionStreams state = streams.get(id);
    Session session =
        state == null || !state.address.equals(addressOf(request))
            ? null
            : server.sessions().get(id);
    if (session == null || !session.principal().sameAs(principal)) {
      rpcError(
          response,
          404,
          JsonRpc.INVALID_REQUEST,
          "unknown or expired session; initialize a new one");
      return null;
    }
    return session;
  }

  private static void rpcError(HttpServerResponse response, int status, int code, String message) {
    json(response, status, JsonRpc.error(null, code, message));
  }

  private static void json(HttpServerResponse response, int status, JsonObject body) {
    response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, JSON).end(body.toBuffer());
  }

  private static void plain(HttpServerResponse response, int status, String text) {
    response.setStatusCode(status).putHeader("Content-Type", "text/plain; charset=utf-8").end(text);
  }

  /** The event streams of one session: its GET stream and its recent POST streams. */
  private static final class HttpSessionStreams {
    final SseStream standalone;
    final String address;
    final AtomicLong counter = new AtomicLong();
    private final Map<String, SseStream> recent =
        new LinkedHashMap<>() {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, SseStream> eldest) {
            return size() > STREAMS_KEPT;
          }
        };

    HttpSessionStreams(SseStream standalone, String address) {
      this.standalone = standalone;
      this.address = address;
    }

    synchronized SseStream find(String id) {
      return standalone.id().equals(id) ? standalone : recent.get(id);
    }

    synchronized void keep(SseStream stream) {
      recent.put(stream.id(), stream);
    }
  }

  /** The answer to one POST: plain JSON, or an event stream from the first message sent early. */
  private final class PostExchange implements ClientChannel {
    private final HttpServerResponse response;
    private final Session session;
    private final List<Runnable> closeActions = new ArrayList<>();
    private SseStream stream;
    private boolean completed;

    PostExchange(HttpServerResponse response, Session session) {
      this.response = response;
      this.session = session;
      response.closeHandler(v -> connectionClosed());
    }

    private synchronized void connectionClosed() {
      if (!completed) {
        closeActions.forEach(Runnable::run);
      }
    }

    @Override
    public synchronized void send(JsonObject message) {
      if (completed) {
        session.standalone().send(message);
        return;
      }
      if (stream == null) {
        HttpSessionStreams state = streams.get(session.id());
        if (state == null) {
          return;
        }
        boolean priming =
            !ProtocolVersions.ASSUMED_WITHOUT_HEADER.equals(session.protocolVersion());
        stream = newStream("p" + state.counter.incrementAndGet(), priming);
        state.keep(stream);
        response.setStatusCode(200);
        stream.attach(response, 0, session.id(), this::connectionClosed);
      }
      stream.send(message);
    }

    @Override
    public synchronized void onClose(Runnable action) {
      closeActions.add(action);
    }

    synchronized void complete(JsonObject result) {
      completed = true;
      if (stream != null) {
        stream.finish(result);
      } else if (result == null) {
        response.setStatusCode(204).end();
      } else if (!response.closed()) {
        json(response, 200, result);
      }
    }
  }
}
