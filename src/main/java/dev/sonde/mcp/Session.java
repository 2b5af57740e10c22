package dev.sonde.mcp;

import dev.sonde.auth.Grant;
import dev.sonde.auth.Principal;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One MCP session: negotiated version, client capabilities, log level, account, subscriptions, the
 * calls in flight and requests sent to the client. Touched from several event loops, so its state
 * is concurrent.
 */
public final class Session {
  /**
   * A stateless request's id: unique on this node and across nodes, and cheap, because one is made
   * per request (a random UUID per request cost the stateless era a measurable share of its time).
   */
  private static final String REQUEST_PREFIX = "request-" + UUID.randomUUID() + "-";

  private static final AtomicLong REQUEST_NUMBERS = new AtomicLong();

  private final String id;
  private final String transport;
  private final Principal principal;
  private final Instant createdAt = Instant.now();
  private final Set<String> subscriptions = ConcurrentHashMap.newKeySet();
  private final Map<String, InFlightCall> calls;
  private final Map<String, Promise<JsonObject>> clientRequests = new ConcurrentHashMap<>();
  private final AtomicLong clientRequestIds = new AtomicLong();
  private final List<Runnable> closeActions = new CopyOnWriteArrayList<>();
  private volatile ClientChannel standalone;
  private volatile String protocolVersion;
  private volatile JsonObject clientInfo = new JsonObject();
  private volatile JsonObject clientCapabilities = new JsonObject();
  private volatile String logLevel;
  private volatile boolean initialized;
  private volatile boolean closed;
  private volatile long lastActive = System.currentTimeMillis();

  public Session(String id, String transport, Principal principal, String logLevel) {
    this(id, transport, principal, logLevel, new ConcurrentHashMap<>());
  }

  private Session(
      String id,
      String transport,
      Principal principal,
      String logLevel,
      Map<String, InFlightCall> calls) {
    this.id = id;
    this.transport = transport;
    this.principal = principal;
    this.logLevel = logLevel;
    this.calls = calls;
  }

  /**
   * A modern (2026-07-28) request's own session: its version, capabilities and log level hold for
   * this request only, nothing is sent beside its answer, and it lives in no store. On a connection
   * (stdio, WebSocket) it shares that connection's calls, so a {@code notifications/cancelled} sent
   * there finds it; over HTTP ({@code connection} null) its stream is its only tie.
   */
  static Session forRequest(
      Session connection, String transport, Principal principal, RequestMeta meta) {
    Session session =
        connection == null
            ? new Session(
                REQUEST_PREFIX + REQUEST_NUMBERS.incrementAndGet(),
                transport,
                principal,
                meta.logLevel())
            : new Session(
                connection.id, connection.transport, principal, meta.logLevel(), connection.calls);
    session.initialize(meta.protocolVersion(), meta.clientInfo(), meta.clientCapabilities());
    session.initialized = true;
    return session;
  }

  public String id() {
    return id;
  }

  public String transport() {
    return transport;
  }

  public String account() {
    return principal.account();
  }

  public Principal principal() {
    return principal;
  }

  /** The tools this session may call (and the prompts and resources that follow them). */
  public Grant grant() {
    return principal.grant();
  }

  public Instant createdAt() {
    return createdAt;
  }

  public String protocolVersion() {
    return protocolVersion;
  }

  public JsonObject clientInfo() {
    return clientInfo;
  }

  public JsonObject clientCapabilities() {
    return clientCapabilities;
  }

  /** The lowest level of log notification the client wants, or null for none. */
  public String logLevel() {
    return logLevel;
  }

  public void logLevel(String level) {
    logLevel = level;
  }

  public boolean initialized() {
    return initialized;
  }

  public boolean closed() {
    return closed;
  }

  void initialize(String version, JsonObject info, JsonObject capabilities) {
    protocolVersion = version;
    clientInfo = info == null ? new JsonObject() : info;
    clientCapabilities = capabilities == null ? new JsonObject() : capabilities;
  }

  void markInitialized() {
    initialized = true;
  }

  /** The channel for messages tied to no request: the GET stream, the socket, stdout. */
  public ClientChannel standalone() {
    return standalone;
  }

  public void standalone(ClientChannel channel) {
    standalone = channel;
  }

  Set<String> subscriptions() {
    return subscriptions;
  }

  Map<String, InFlightCall> calls() {
    return calls;
  }

  String nextClientRequestId() {
    return "sonde-" + clientRequestIds.incrementAndGet();
  }

  Map<String, Promise<JsonObject>> clientRequests() {
    return clientRequests;
  }

  public void touch() {
    lastActive = System.currentTimeMillis();
  }

  public long lastActive() {
    return lastActive;
  }

  public void onClose(Runnable action) {
    closeActions.add(action);
  }

  void close() {
    if (closed) {
      return;
    }
    closed = true;
    clientRequests.values().forEach(p -> p.tryFail("the session ended"));
    closeActions.forEach(Runnable::run);
  }
}
