package dev.sonde.mcp;

import dev.sonde.auth.AuditTrail;
import dev.sonde.auth.FairUse;
import dev.sonde.auth.Grant;
import dev.sonde.auth.Principal;
import dev.sonde.config.LogLevel;
import dev.sonde.config.SondeConfig;
import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import dev.sonde.tools.CallHeaders;
import dev.sonde.tools.PromptProvider;
import dev.sonde.tools.ResourceProvider;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol engine behind every transport: JSON-RPC dispatch, the MCP lifecycle, and the tools,
 * resources, prompts, completion, logging and tasks methods. Transports hand it one parsed message
 * with the session and the channel to answer on; it knows no transport and no database.
 */
public final class McpServer {
  /** Publish {@code {"uri": ...}} here when a resource changes, to notify its subscribers. */
  public static final String RESOURCE_UPDATED_ADDRESS = CallHeaders.RESOURCE_UPDATED_ADDRESS;

  private static final Logger LOG = LoggerFactory.getLogger(McpServer.class);
  private static final JsonObject EMPTY = new JsonObject();

  /** How long a sealed requestState is honoured: a person answering a question may take a while. */
  private static final long REQUEST_STATE_LIFETIME_MILLIS = 3_600_000;

  /** Methods of the 2025-11-25 session lifecycle, unknown to a modern request. */
  private static final Set<String> LEGACY_ONLY =
      Set.of(
          "initialize",
          "ping",
          "logging/setLevel",
          "resources/subscribe",
          "resources/unsubscribe",
          "tasks/result",
          "tasks/list");

  private final SondeConfig config;
  private final SessionStore sessions;
  private final ToolRegistry tools;
  private final List<ResourceProvider> resources;
  private final List<PromptProvider> prompts;
  private final ServerInfo info;
  private final JsonObject serverInfo;
  private final ToolCaller caller;
  private final AuditTrail audit;
  private final Map<String, Integer> transports = new TreeMap<>();
  private final Listeners listeners = new Listeners();

  public McpServer(
      Vertx vertx,
      SondeConfig config,
      SessionStore sessions,
      ToolRegistry tools,
      List<ResourceProvider> resources,
      List<PromptProvider> prompts,
      ServerInfo info,
      AuditTrail audit) {
    this.config = config;
    this.sessions = sessions;
    this.tools = tools;
    this.resources = List.copyOf(resources);
    this.prompts = List.copyOf(prompts);
    this.info = info;
    // built once: every modern result carries it, and nothing downstream changes it
    this.serverInfo =
        new JsonObject()
            .put("name", info.name())
            .put("title", info.title())
            .put("version", info.version());
    this.caller =
        new ToolCaller(
            vertx,
            tools,
            config.mcp().toolTimeoutSeconds() * 1000L,
            config.jobs().taskTtlSeconds() * 1000L,
            config.jobs().cancelOnDisconnect(),
            new RequestStates(config.mcp().requestStateSecret(), REQUEST_STATE_LIFETIME_MILLIS),
            audit,
            new FairUse(
                config.auth().limits().maxConcurrentCalls(),
                config.auth().limits().maxConcurrentJobs()));
    this.audit = audit;
    tools.onChange(this::toolsChanged);
    caller.onTaskChange(task -> listeners.taskChanged(task.taskId, task.detailed()));
    vertx.eventBus().consumer(CallHeaders.TOOLS_CHANGED_ADDRESS, m -> toolsChanged());
    vertx
        .eventBus()
        .<JsonObject>consumer(
            RESOURCE_UPDATED_ADDRESS, m -> resourceUpdated(m.body().getString("uri")));
    vertx
        .eventBus()
        .consumer(
            CallHeaders.RESOURCES_CHANGED_ADDRESS,
            m -> {
              broadcast(JsonRpc.notification("notifications/resources/list_changed", null));
              listeners.listChanged("resourcesListChanged");
            });
    vertx.eventBus().<JsonObject>consumer(CallHeaders.MCP_STATUS_ADDRESS, m -> m.reply(status()));
    long idle = config.mcp().sessionIdleMinutes() * 60_000L;
    // swept four times per limit, so a session outlives it by a quarter at most
    vertx.setPeriodic(Math.min(idle / 4, 60_000), id -> sessions.expire(idle));
  }

  private void toolsChanged() {
    broadcast(JsonRpc.notification("notifications/tools/list_changed", null));
    listeners.listChanged("toolsListChanged");
  }

  /** Writes the audit lines still waiting (the server is stopping). */
  public Future<Void> flushAudit() {
    return audit.flush();
  }

  /**
   * Ends what principals {@code gone} matches hold open (their token was revoked or expired): their
   * sessions, with the calls and sockets of those, their listen streams, and the stateless calls
   * and modern tasks they have running.
   */
  public void signOut(Predicate<Principal> gone) {
    sessions.all().stream()
        .filter(s -> gone.test(s.principal()))
        .forEach(s -> sessions.close(s.id()));
    listeners.endWhere(gone);
    caller.signOut(gone);
  }

  /** Ends every modern listen stream with its closing result (the server is stopping). */
  public void stop() {
    listeners.endAll();
  }

  /** The parameters a tool's HTTP calls repeat in {@code Mcp-Param-*} headers. */
  public List<ParamHeader> paramHeaders(String tool) {
    return tools.headers(tool);
  }

  public SessionStore sessions() {
    return sessions;
  }

  /** A new session of the local account on a transport (stdio). */
  public Session openSession(String transport) {
    return openSession(transport, sessions.local());
  }

  /** A new session of {@code principal} on a transport; closing it cancels its calls and tasks. */
  public Session openSession(String transport, Principal principal) {
    Session session = sessions.create(transport, principal);
    session.onClose(
        () -> {
          caller.cancelAll(session, "the session ended");
          session.subscriptions().stream()
              .filter(uri -> !subscribedAnywhere(uri))
              .forEach(
                  uri ->
                      resources.stream()
                          .filter(p -> p.owns(uri))
                          .forEach(p -> p.unsubscribed(uri)));
        });
    return session;
  }

  public void closeSession(Session session) {
    sessions.close(session.id());
  }

  /** Counts a transport as listening, for {@code debug_mcp_status}. */
  public synchronized void transportStarted(String name) {
    transports.merge(name, 1, Integer::sum);
  }

  /**
   * For transports that carry one JSON text per frame or line (WebSocket, stdio): parses it,
   * handles it and sends the answer, or a parse error, back on the same channel.
   */
  public void receive(Session session, String text, ClientChannel channel) {
    JsonObject message;
    try {
      message = WireJson.object(text);
    } catch (WireJson.Invalid e) {
      channel.send(JsonRpc.error(null, JsonRpc.PARSE_ERROR, e.getMessage()));
      return;
    }
    handle(session, message, channel)
        .onSuccess(
            response -> {
              if (response != null) {
                channel.send(response);
              }
            });
  }

  /**
   * Handles one message. The future holds the response to send, or null when there is none (a
   * notification, a response from the client, a cancelled request). A request whose {@code _meta}
   * names a protocol version is served statelessly in the modern era, whatever the connection.
   */
  public Future<JsonObject> handle(Session session, JsonObject message, ClientChannel channel) {
    return handle(session, session.principal(), session.transport(), message, channel);
  }

  /** Handles one message of {@code principal} that arrived outside any session (a modern POST). */
  public Future<JsonObject> handleStateless(
      Principal principal, String transport, JsonObject message, ClientChannel channel) {
    return handle(null, principal, transport, message, channel);
  }

  private Future<JsonObject> handle(
      Session session,
      Principal principal,
      String transport,
      JsonObject message,
      ClientChannel channel) {
    String problem = JsonRpc.envelopeProblem(message);
    Object id = message.getValue("id");
    if (problem != null) {
      return Future.succeededFuture(
          JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "invalid request: " + problem));
    }
    if (JsonRpc.isResponse(message)) {
      if (session != null) {
        clientResponse(session, message);
      }
      return Future.succeededFuture();
    }
    String method = message.getString("method");
    JsonObject params = message.getJsonObject("params", EMPTY);
    if (!message.containsKey("id")) {
      if (session != null) {
        notification(session, method, params);
      }
      return Future.succeededFuture();
    }
    boolean modern = RequestMeta.isModern(message);
    Future<JsonObject> result;
    try {
      result =
          modern
              ? modernRequest(session, principal, transport, id, method, params, channel)
              : request(session, id, method, params, channel);
    } catch (McpException | CallerException e) {
      result = Future.failedFuture(e);
    } catch (RuntimeException e) {
      LOG.error("{} failed", method, e);
      result = Future.failedFuture(new McpException(JsonRpc.INTERNAL_ERROR, "internal error"));
    }
    return result.transform(
        ar -> {
          if (ar.succeeded()) {
            JsonObject answer = ar.result();
            return Future.succeededFuture(
                answer == null
                    ? null
                    : JsonRpc.result(id, modern ? modernResult(method, answer) : answer));
          }
          if (ar.cause() instanceof McpException e) {
            return Future.succeededFuture(JsonRpc.error(id, e));
          }
          if (ar.cause() instanceof CallerException e) {
            // a provider's caller-fixable problem: a missing argument, an unknown table
            return Future.succeededFuture(
                JsonRpc.error(id, JsonRpc.INVALID_PARAMS, e.getMessage()));
          }
          LOG.error("{} failed", method, ar.cause());
          return Future.succeededFuture(
              JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error"));
        });
  }

  /**
   * A 2026-07-28 request: its own metadata stands in for a session's, so any node can answer it.
   * The legacy lifecycle methods ({@code initialize}, {@code ping}, {@code logging/setLevel},
   * {@code resources/subscribe}) do not exist in this era.
   */
  private Future<JsonObject> modernRequest(
      Session connection,
      Principal principal,
      String transport,
      Object id,
      String method,
      JsonObject params,
      ClientChannel channel) {
    RequestMeta meta = RequestMeta.of(params);
    Session request = Session.forRequest(connection, transport, principal, meta);
    int pageSize = config.mcp().pageSize();
    return switch (method) {
      case "server/discover" -> done(discover());
      case "tools/list" ->
          done(Cursors.page(toolListing(request), params.getString("cursor"), pageSize, "tools"));
      case "tools/call" -> caller.call(request, id, params, channel);
      case "resources/list", "resources/templates/list", "prompts/list" ->
          done(listing(request, method, params.getString("cursor")));
      case "resources/read" ->
          readResource(request, required(params, "uri"), JsonRpc.INVALID_PARAMS);
      case "prompts/get" ->
          getPrompt(
              request,
              required(params, "name"),
              params.getJsonObject("arguments", EMPTY),
              params.getValue("inputResponses") instanceof JsonObject r ? r : EMPTY);
      case "completion/complete" -> complete(request, params);
      case "tasks/get" -> done(caller.modernTaskGet(request, params));
      case "tasks/update" -> done(caller.modernTaskUpdate(request, params));
      case "tasks/cancel" -> done(caller.modernTaskCancel(request, params));
      case "subscriptions/listen" ->
          listen(connection, request, id, params.getJsonObject("notifications"), channel);
      default ->
          throw new McpException(
              JsonRpc.METHOD_NOT_FOUND,
              "method not found in "
                  + meta.protocolVersion()
                  + ": "
                  + Quote.of(method)
                  + (LEGACY_ONLY.contains(method)
                      ? " belongs to the 2025-11-25 session lifecycle; send initialize for it"
                      : ""));
    };
  }

  /**
   * A modern result as the revision shapes it: {@code resultType}, the server's identity in {@code
   * _meta}, and for cacheable results how long and by whom they may be cached. A shallow copy: the
   * answer may be a provider's cached object.
   */
  private JsonObject modernResult(String method, JsonObject answer) {
    JsonObject result = new JsonObject(new LinkedHashMap<>(answer.getMap()));
    if (!result.containsKey("resultType")) {
      result.put("resultType", "complete");
    }
    JsonObject meta =
        result.getValue("_meta") instanceof JsonObject m
            ? new JsonObject(new LinkedHashMap<>(m.getMap()))
            : new JsonObject();
    result.put("_meta", meta.put(RequestMeta.SERVER_INFO, serverInfo));
    Caching caching = Caching.of(method, config);
    if (caching != null) {
      result.put("ttlMs", caching.ttlMs()).put("cacheScope", caching.scope());
    }
    return result;
  }

  private JsonObject discover() {
    JsonObject result =
        new JsonObject()
            .put("supportedVersions", ProtocolVersions.MODERN_SUPPORTED)
            .put(
                "capabilities",
                new JsonObject()
                    .put("tools", new JsonObject().put("listChanged", true))
                    .put(
                        "resources",
                        new JsonObject().put("subscribe", true).put("listChanged", true))
                    .put("prompts", new JsonObject())
                    .put(
                        "extensions",
                        new JsonObject().put(ToolCaller.TASKS_EXTENSION, new JsonObject()))
                    .put("logging", new JsonObject())
                    .put("completions", new JsonObject()));
    if (info.instructions() != null) {
      result.put("instructions", info.instructions());
    }
    return result;
  }

  private Future<JsonObject> request(
      Session session, Object id, String method, JsonObject params, ClientChannel channel) {
    if ("initialize".equals(method)) {
      return Future.succeededFuture(initialize(session, params));
    }
    if ("ping".equals(method)) {
      return Future.succeededFuture(new JsonObject());
    }
    if (session.protocolVersion() == null) {
      throw new McpException(
          JsonRpc.INVALID_REQUEST, "the session is not initialized; send initialize first");
    }
    int pageSize = config.mcp().pageSize();
    return switch (method) {
      case "tools/list" ->
          done(Cursors.page(toolListing(session), params.getString("cursor"), pageSize, "tools"));
      case "tools/call" -> caller.call(session, id, params, channel);
      case "resources/list", "resources/templates/list", "prompts/list" ->
          done(listing(session, method, params.getString("cursor")));
      case "resources/read" ->
          readResource(session, required(params, "uri"), JsonRpc.RESOURCE_NOT_FOUND);
      case "resources/subscribe" -> subscribe(session, required(params, "uri"), true);
      case "resources/unsubscribe" -> subscribe(session, required(params, "uri"), false);
      case "prompts/get" ->
          getPrompt(
              session, required(params, "name"), params.getJsonObject("arguments", EMPTY), EMPTY);
      case "completion/complete" -> complete(session, params);
      case "logging/setLevel" -> done(setLevel(session, required(params, "level")));
      case "tasks/get" -> done(caller.taskGet(session, params));
      case "tasks/result" -> caller.taskResult(session, params);
      case "tasks/list" -> done(caller.taskList(session, params, pageSize));
      case "tasks/cancel" -> done(caller.taskCancel(session, params));
      default ->
          throw new McpException(JsonRpc.METHOD_NOT_FOUND, "method not found: " + Quote.of(method));
    };
  }

  private static Future<JsonObject> done(JsonObject result) {
    return Future.succeededFuture(result);
  }

  private void notification(Session session, String method, JsonObject params) {
    switch (method) {
      case "notifications/initialized" -> session.markInitialized();
      case "notifications/cancelled" -> {
        if (!listeners.cancel(session.id(), params.getValue("requestId"))) {
          caller.cancel(
              session,
              params.getValue("requestId"),
              params.getString("reason", "cancelled by the client"));
        }
      }
      default -> LOG.debug("ignored notification {}", method);
    }
  }

  private void clientResponse(Session session, JsonObject message) {
    var pending = session.clientRequests().get(String.valueOf(message.getValue("id")));
    if (pending == null) {
      LOG.debug("response to unknown request {}", message.getValue("id"));
    } else if (message.containsKey("error")) {
      pending.tryFail(
          message.getJsonObject("error").getString("message", "the client refused the request"));
    } else {
      pending.tryComplete(message.getJsonObject("result", new JsonObject()));
    }
  }

  private JsonObject initialize(Session session, JsonObject params) {
    if (session.protocolVersion() != null) {
      throw new McpException(JsonRpc.INVALID_REQUEST, "the session is already initialized");
    }
    Object requested = params.getValue("protocolVersion");
    if (!(requested instanceof String)) {
      throw new McpException(JsonRpc.INVALID_PARAMS, "initialize needs \"protocolVersion\"");
    }
    String version = ProtocolVersions.negotiate((String) requested);
    session.initialize(
        version, params.getJsonObject("clientInfo"), params.getJsonObject("capabilities"));
    JsonObject capabilities =
        new JsonObject()
            .put("tools", new JsonObject().put("listChanged", true))
            .put("resources", new JsonObject().put("subscribe", true).put("listChanged", true))
            .put("prompts", new JsonObject().put("listChanged", true))
            .put("logging", new JsonObject())
            .put("completions", new JsonObject())
            .put(
                "tasks",
                new JsonObject()
                    .put("list", new JsonObject())
                    .put("cancel", new JsonObject())
                    .put(
                        "requests",
                        new JsonObject()
                            .put("tools", new JsonObject().put("call", new JsonObject()))));
    return new JsonObject()
        .put("protocolVersion", version)
        .put("capabilities", capabilities)
        .put("serverInfo", serverInfo)
        .put("instructions", info.instructions());
  }

  /**
   * The resources or templates of every provider that {@code grant} may read ({@code key}: uri).
   */
  private List<JsonObject> collect(
      Grant grant,
      java.util.function.Function<ResourceProvider, List<JsonObject>> part,
      String key) {
    List<JsonObject> all = new ArrayList<>();
    for (ResourceProvider provider : resources) {
      for (JsonObject entry : part.apply(provider)) {
        if (readable(grant, provider, entry.getString(key))) {
          all.add(entry);
        }
      }
    }
    return all;
  }

  /** A page of the resources, their templates or the prompts: the same in both eras. */
  private JsonObject listing(Session session, String method, String cursor) {
    int pageSize = config.mcp().pageSize();
    Grant grant = session.grant();
    return switch (method) {
      case "resources/list" ->
          Cursors.page(
              collect(grant, ResourceProvider::resources, "uri"), cursor, pageSize, "resources");
      case "resources/templates/list" ->
          Cursors.page(
              collect(grant, ResourceProvider::templates, "uriTemplate"),
              cursor,
              pageSize,
              "resourceTemplates");
      default -> Cursors.page(promptListing(grant), cursor, pageSize, "prompts");
    };
  }

  /** The tools a session may call, in the registry's order. */
  private List<JsonObject> toolListing(Session session) {
    Grant grant = session.grant();
    List<JsonObject> all = tools.listing();
    return grant.isEverything()
        ? all
        : all.stream().filter(t -> grant.allows(t.getString("name"))).toList();
  }

  private List<JsonObject> promptListing(Grant grant) {
    List<JsonObject> all = new ArrayList<>();
    for (PromptProvider provider : prompts) {
      for (JsonObject prompt : provider.prompts()) {
        if (visible(grant, provider, prompt.getString("name"))) {
          all.add(prompt);
        }
      }
    }
    return all;
  }

  /** Whether a resource (or template) shows data only a tool outside the grant reads. */
  private static boolean readable(Grant grant, ResourceProvider provider, String uri) {
    String tool = uri == null ? null : provider.toolFor(uri);
    return tool == null || grant.allows(tool);
  }

  /** Whether a prompt has the model call only tools the grant holds (of those that exist). */
  private boolean visible(Grant grant, PromptProvider provider, String prompt) {
    return grant.isEverything()
        || provider.toolsOf(prompt).stream().allMatch(t -> tools.get(t) == null || grant.allows(t));
  }

  /** The refusal of a resource the session's toolsets do not reach. */
  private static McpException unreadable(Session session, ResourceProvider provider, String uri) {
    return new McpException(
        JsonRpc.INVALID_PARAMS,
        "resource "
            + Quote.of(uri)
            + " shows what "
            + provider.toolFor(uri)
            + " reads; "
            + session.grant().refusal(provider.toolFor(uri)));
  }

  private Future<JsonObject> readResource(Session session, String uri, int notFound) {
    for (ResourceProvider provider : resources) {
      if (provider.owns(uri)) {
        if (!readable(session.grant(), provider, uri)) {
          throw unreadable(session, provider, uri);
        }
        return provider.read(uri, session.principal().account());
      }
    }
    throw new McpException(
        notFound, "resource not found: " + Quote.of(uri) + "; resources/list shows what exists");
  }

  private Future<JsonObject> subscribe(Session session, String uri, boolean on) {
    for (ResourceProvider provider : resources) {
      if (on && provider.owns(uri) && !readable(session.grant(), provider, uri)) {
        throw unreadable(session, provider, uri);
      }
    }
    if (on) {
      if (session.subscriptions().add(uri)) {
        resources.stream().filter(p -> p.owns(uri)).forEach(p -> p.subscribed(uri));
      }
    } else if (session.subscriptions().remove(uri) && !subscribedAnywhere(uri)) {
      resources.stream().filter(p -> p.owns(uri)).forEach(p -> p.unsubscribed(uri));
    }
    return done(new JsonObject());
  }

  private boolean subscribedAnywhere(String uri) {
    return listeners.watches(uri)
        || sessions.all().stream().anyMatch(s -> s.subscriptions().contains(uri));
  }

  private Future<JsonObject> listen(
      Session connection, Session request, Object id, JsonObject filter, ClientChannel channel) {
    if (filter != null && filter.containsKey("taskIds") && !ToolCaller.tasksDeclared(request)) {
      throw ToolCaller.withoutTasks(
          "task notifications need the " + ToolCaller.TASKS_EXTENSION + " extension");
    }
    return listeners.listen(
        connection == null ? "http-" + UUID.randomUUID() : connection.id(),
        request.principal(),
        id,
        filter,
        channel,
        uri -> resources.stream().anyMatch(p -> p.owns(uri) && readable(request.grant(), p, uri)),
        taskId -> caller.modernTask(taskId, request.principal()) != null,
        this::watch,
        this::unwatch);
  }

  /** A modern listener watches {@code uri}: its provider starts watching it, once. */
  private void watch(String uri) {
    resources.stream().filter(p -> p.owns(uri)).forEach(p -> p.subscribed(uri));
  }

  /** A modern listener stopped watching {@code uri}: the provider stops if nobody else watches. */
  private void unwatch(String uri) {
    if (!subscribedAnywhere(uri)) {
      resources.stream().filter(p -> p.owns(uri)).forEach(p -> p.unsubscribed(uri));
    }
  }

  private void resourceUpdated(String uri) {
    listeners.resourceUpdated(uri);
    JsonObject note =
        JsonRpc.notification("notifications/resources/updated", new JsonObject().put("uri", uri));
    for (Session s : sessions.all()) {
      if (s.subscriptions().contains(uri) && s.standalone() != null) {
        s.standalone().send(note);
      }
    }
  }

  private Future<JsonObject> getPrompt(
      Session session, String name, JsonObject arguments, JsonObject input) {
    for (PromptProvider provider : prompts) {
      if (!visible(session.grant(), provider, name)) {
        throw hiddenPrompt(session, provider, name);
      }
      Future<JsonObject> result = provider.get(name, arguments, input);
      if (result != null) {
        return result;
      }
    }
    throw new McpException(
        JsonRpc.INVALID_PARAMS,
        "unknown prompt " + Quote.of(name) + "; prompts/list shows the available prompts");
  }

  /** The refusal of a prompt that has the model call tools outside the session's toolsets. */
  private McpException hiddenPrompt(Session session, PromptProvider provider, String name) {
    String outside =
        provider.toolsOf(name).stream()
            .filter(t -> tools.get(t) != null && !session.grant().allows(t))
            .findFirst()
            .orElse("");
    return new McpException(
        JsonRpc.INVALID_PARAMS,
        "prompt " + Quote.of(name) + " uses " + outside + "; " + session.grant().refusal(outside));
  }

  private Future<JsonObject> complete(Session session, JsonObject params) {
    JsonObject ref = params.getJsonObject("ref");
    JsonObject argument = params.getJsonObject("argument");
    if (ref == null || argument == null) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS, "completion/complete needs \"ref\" and \"argument\"");
    }
    String name = argument.getString("name", "");
    String value = argument.getString("value", "");
    JsonObject context = params.getJsonObject("context", EMPTY);
    JsonObject resolved = context.getJsonObject("arguments", EMPTY);
    List<Future<List<String>>> parts =
        switch (ref.getString("type", "")) {
          case "ref/prompt" ->
              prompts.stream()
                  .filter(p -> visible(session.grant(), p, ref.getString("name")))
                  .map(
                      p ->
                          p.complete(
                              ref.getString("name"),
                              name,
                              value,
                              resolved,
                              session.principal().account()))
                  .toList();
          case "ref/resource" ->
              resources.stream()
                  .filter(
                      p ->
                          ref.getValue("uri") instanceof String uri
                              && p.owns(uri)
                              && readable(session.grant(), p, uri))
                  .map(
                      p ->
                          p.complete(
                              ref.getString("uri"),
                              name,
                              value,
                              resolved,
                              session.principal().account()))
                  .toList();
          default ->
              throw new McpException(
                  JsonRpc.INVALID_PARAMS, "ref.type must be ref/prompt or ref/resource");
        };
    return Future.join(parts)
        .transform(
            done -> {
              List<String> values = new ArrayList<>();
              parts.stream().filter(Future::succeeded).forEach(f -> values.addAll(f.result()));
              List<String> page = values.subList(0, Math.min(100, values.size()));
              return Future.succeededFuture(
                  new JsonObject()
                      .put(
                          "completion",
                          new JsonObject()
                              .put("values", new JsonArray(new ArrayList<>(page)))
                              .put("total", values.size())
                              .put("hasMore", values.size() > page.size())));
            });
  }

  private JsonObject setLevel(Session session, String level) {
    if (!LogLevel.isKnown(level)) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS,
          "unknown log level " + Quote.of(level) + "; use one of " + LogLevel.NAMES);
    }
    session.logLevel(level);
    return new JsonObject();
  }

  private static String required(JsonObject params, String key) {
    Object value = params.getValue(key);
    if (!(value instanceof String s) || s.isEmpty()) {
      throw new McpException(JsonRpc.INVALID_PARAMS, "missing \"" + key + "\" (a string)");
    }
    return s;
  }

  private void broadcast(JsonObject notification) {
    sessions
        .all()
        .forEach(
            s -> {
              if (s.standalone() != null && s.protocolVersion() != null) {
                s.standalone().send(notification);
              }
            });
  }

  private synchronized JsonObject status() {
    JsonObject byTransport = new JsonObject();
    sessions
        .all()
        .forEach(s -> byTransport.put(s.transport(), byTransport.getInteger(s.transport(), 0) + 1));
    JsonObject families = new JsonObject();
    tools.namesByFamily().forEach((family, names) -> families.put(family, new JsonArray(names)));
    return new JsonObject()
        .put("families", families)
        .put("toolCount", tools.listing().size())
        .put("transports", new JsonObject(new TreeMap<>(transports)))
        .put("openSessions", byTransport)
        .put("sessionCount", sessions.all().size())
        .put("callsByAccount", new JsonObject(new LinkedHashMap<>(audit.callsByAccount())));
  }
}
