package dev.sonde.mcp;

import dev.sonde.auth.Principal;
import dev.sonde.core.Quote;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The open {@code subscriptions/listen} streams of the modern era: each receives only the change
 * notifications its filter named, tagged with its subscription id (the listen request's id), and
 * lives until the client closes it or cancels it, or the server ends it with a result.
 */
final class Listeners {
  static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  /** The list-change kinds a filter may name, and the notification each one receives. */
  static final Map<String, String> LIST_CHANGES =
      Map.of(
          "toolsListChanged", "notifications/tools/list_changed",
          "resourcesListChanged", "notifications/resources/list_changed");

  /** Streams one connection (a socket, stdio) may hold; each HTTP stream is its own connection. */
  static final int MAX_PER_CONNECTION = 16;

  private final Map<String, Listener> open = new ConcurrentHashMap<>();

  /** One stream: what it asked for, where it goes, and how it ends. */
  record Listener(
      String key,
      Principal principal,
      Object subscriptionId,
      Set<String> listChanges,
      Set<String> resources,
      Set<String> tasks,
      ClientChannel channel,
      Promise<JsonObject> end,
      Consumer<String> unwatch) {}

  /**
   * Opens a stream on {@code channel} and acknowledges it with the part of {@code filter} Sonde
   * honours; the future completes when the stream ends (null: the client left, nothing to send).
   * {@code owned} says which resource URIs exist to be watched.
   */
  Future<JsonObject> listen(
      String connection,
      Principal principal,
      Object id,
      JsonObject filter,
      ClientChannel channel,
      Predicate<String> owned,
      Predicate<String> ownTask,
      Consumer<String> watch,
      Consumer<String> unwatch) {
    if (filter == null) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS,
          "subscriptions/listen needs \"notifications\": the kinds to receive, e.g."
              + " {\"toolsListChanged\": true}");
    }
    JsonObject honoured = new JsonObject();
    Set<String> kinds = ConcurrentHashMap.newKeySet();
    for (String kind : LIST_CHANGES.keySet()) {
      if (Boolean.TRUE.equals(filter.getValue(kind))) {
        kinds.add(kind);
        honoured.put(kind, true);
      }
    }
    Set<String> uris = ConcurrentHashMap.newKeySet();
    if (filter.getValue("resourceSubscriptions") instanceof JsonArray asked) {
      JsonArray kept = new JsonArray();
      for (Object uri : asked) {
        if (uri instanceof String u && owned.test(u) && uris.add(u)) {
          kept.add(u);
        }
      }
      if (!kept.isEmpty()) {
        honoured.put("resourceSubscriptions", kept);
      }
    }
    Set<String> tasks = ConcurrentHashMap.newKeySet();
    if (filter.getValue("taskIds") instanceof JsonArray asked) {
      JsonArray kept = new JsonArray();
      for (Object taskId : asked) {
        if (taskId instanceof String t && ownTask.test(t) && tasks.add(t)) {
          kept.add(t);
        }
      }
      if (!kept.isEmpty()) {
        honoured.put("taskIds", kept);
      }
    }
    String key = connection + "/" + Quote.of(String.valueOf(id));
    if (open.keySet().stream().filter(k -> k.startsWith(connection + "/")).count()
        >= MAX_PER_CONNECTION) {
      throw new McpException(
          JsonRpc.SERVER_BUSY,
          "this connection already holds "
              + MAX_PER_CONNECTION
              + " listen streams; one stream can carry every kind of change");
    }
    Listener listener =
        new Listener(key, principal, id, kinds, uris, tasks, channel, Promise.promise(), unwatch);
    open.put(key, listener);
    channel.send(
        tagged(
            JsonRpc.notification(
                "notifications/subscriptions/acknowledged",
                new JsonObject().put("notifications", honoured)),
            id));
    uris.forEach(watch);
    channel.onClose(() -> end(key, null));
    return listener.end().future();
  }

  /** Ends one stream: with the graceful result, or with nothing when its client went away. */
  void end(String key, JsonObject result) {
    Listener listener = open.remove(key);
    if (listener != null) {
      listener.resources().forEach(listener.unwatch());
      listener.end().tryComplete(result);
    }
  }

  /** A client's {@code notifications/cancelled} for a listen request it sent on a connection. */
  boolean cancel(String connection, Object requestId) {
    String key = connection + "/" + Quote.of(String.valueOf(requestId));
    boolean known = open.containsKey(key);
    end(key, null);
    return known;
  }

  /** Ends every stream gracefully (the server is stopping). */
  void endAll() {
    endWhere(p -> true);
  }

  /** Ends the streams of principals {@code gone} matches, gracefully: a new one must sign in. */
  void endWhere(Predicate<Principal> gone) {
    open.values().stream()
        .filter(l -> gone.test(l.principal()))
        .forEach(
            l ->
                end(
                    l.key(),
                    new JsonObject()
                        .put("resultType", "complete")
                        .put("_meta", new JsonObject().put(SUBSCRIPTION_ID, l.subscriptionId()))));
  }

  /** Sends a list change to the streams that asked for its kind. */
  void listChanged(String kind) {
    String method = LIST_CHANGES.get(kind);
    open.values().stream()
        .filter(l -> l.listChanges().contains(kind))
        .forEach(
            l ->
                l.channel()
                    .send(
                        tagged(
                            JsonRpc.notification(method, new JsonObject()), l.subscriptionId())));
  }

  /** Sends a resource update to the streams watching that URI. */
  void resourceUpdated(String uri) {
    open.values().stream()
        .filter(l -> l.resources().contains(uri))
        .forEach(
            l ->
                l.channel()
                    .send(
                        tagged(
                            JsonRpc.notification(
                                "notifications/resources/updated",
                                new JsonObject().put("uri", uri)),
                            l.subscriptionId())));
  }

  /** Sends a task's new status, as {@code tasks/get} would show it, to the streams following it. */
  void taskChanged(String taskId, JsonObject detailed) {
    open.values().stream()
        .filter(l -> l.tasks().contains(taskId))
        .forEach(
            l ->
                l.channel()
                    .send(
                        tagged(
                            JsonRpc.notification("notifications/tasks", detailed.copy()),
                            l.subscriptionId())));
  }

  boolean watches(String uri) {
    return open.values().stream().anyMatch(l -> l.resources().contains(uri));
  }

  private static JsonObject tagged(JsonObject notification, Object subscriptionId) {
    JsonObject params = notification.getJsonObject("params");
    JsonObject meta = params.getJsonObject("_meta", new JsonObject());
    params.put("_meta", meta.put(SUBSCRIPTION_ID, subscriptionId));
    return notification;
  }
}
