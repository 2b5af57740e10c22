package dev.sonde.support;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A minimal MCP client for tests; one implementation per transport. */
public interface McpClient extends AutoCloseable {
  long REQUEST_LIMIT_SECONDS = 180;

  /** Sends a request; the future completes with the whole response message. */
  CompletableFuture<JsonObject> send(long id, String method, JsonObject params);

  void notify(String method, JsonObject params);

  /** Every notification and server request received so far, in arrival order. */
  List<JsonObject> received();

  @Override
  void close();

  /** A JSON-RPC request (with an id) or notification (id null). */
  static JsonObject message(Long id, String method, JsonObject params) {
    JsonObject message = new JsonObject().put("jsonrpc", "2.0");
    if (id != null) {
      message.put("id", id);
    }
    message.put("method", method);
    if (params != null) {
      message.put("params", params);
    }
    return message;
  }

  /** Completes the request a response answers, or keeps a notification or server request. */
  static void route(
      JsonObject message,
      Map<String, CompletableFuture<JsonObject>> pending,
      List<JsonObject> received) {
    CompletableFuture<JsonObject> answer =
        message.getValue("method") == null
            ? pending.remove(String.valueOf(message.getValue("id")))
            : null;
    if (answer != null) {
      answer.complete(message);
    } else {
      received.add(message);
    }
  }

  default JsonObject request(long id, String method, JsonObject params) {
    try {
      // a ceiling, not a schedule: a loaded machine may take minutes where an idle one takes ms
      return send(id, method, params).get(REQUEST_LIMIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(method + " failed: " + e, e);
    }
  }

  /** The params of an initialize request from a client with no capabilities. */
  static JsonObject initializeParams(String version, String clientName) {
    return new JsonObject()
        .put("protocolVersion", version)
        .put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", clientName).put("version", "1"));
  }

  /** The modern revision, stated on every request instead of negotiated once. */
  String MODERN = "2026-07-28";

  /**
   * {@code params} as a modern (2026-07-28) request carries them: the version, the client's
   * capabilities (none here) and its identity in {@code _meta}, beside whatever it held.
   */
  /** Client capabilities that declare the tasks extension. */
  JsonObject CAN_POLL_TASKS =
      new JsonObject()
          .put(
              "extensions",
              new JsonObject().put("io.modelcontextprotocol/tasks", new JsonObject()));

  /** {@link #modern} params of a client that declares the tasks extension. */
  static JsonObject modernWithTasks(JsonObject params) {
    JsonObject modern = modern(params);
    modern.getJsonObject("_meta").put("io.modelcontextprotocol/clientCapabilities", CAN_POLL_TASKS);
    return modern;
  }

  static JsonObject modern(JsonObject params) {
    JsonObject copy = params == null ? new JsonObject() : params.copy();
    JsonObject meta = copy.getJsonObject("_meta", new JsonObject());
    copy.put(
        "_meta",
        new JsonObject()
            .put("io.modelcontextprotocol/protocolVersion", MODERN)
            .put("io.modelcontextprotocol/clientCapabilities", new JsonObject())
            .put(
                "io.modelcontextprotocol/clientInfo",
                new JsonObject().put("name", "sonde-tests").put("version", "1"))
            .mergeIn(meta));
    return copy;
  }

  default JsonObject initialize(String version) {
    JsonObject response = request(0, "initialize", initializeParams(version, "sonde-tests"));
    notify("notifications/initialized", null);
    return response;
  }

  default List<JsonObject> received(String method) {
    synchronized (received()) {
      return received().stream().filter(m -> method.equals(m.getString("method"))).toList();
    }
  }
}
