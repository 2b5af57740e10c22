package dev.sonde.mcp;

import io.vertx.core.json.JsonObject;

/** JSON-RPC 2.0 codes and message shapes. */
public final class JsonRpc {
  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;

  /** Implementation-defined: the server is at a limit and the request may succeed later. */
  public static final int SERVER_BUSY = -32000;

  /** MCP before 2026-07-28: the resource does not exist (the modern revision says -32602). */
  public static final int RESOURCE_NOT_FOUND = -32002;

  /** MCP 2026-07-28: the HTTP headers do not match the body, or a required one is missing. */
  public static final int HEADER_MISMATCH = -32020;

  /** MCP 2026-07-28: the request needs a client capability it did not declare. */
  public static final int MISSING_CLIENT_CAPABILITY = -32021;

  /** MCP 2026-07-28: the request's protocol version is not one the server speaks. */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  private JsonRpc() {}

  public static JsonObject result(Object id, JsonObject result) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
  }

  public static JsonObject error(Object id, int code, String message) {
    return new JsonObject()
        .put("jsonrpc", "2.0")
        .put("id", id)
        .put("error", new JsonObject().put("code", code).put("message", message));
  }

  public static JsonObject error(Object id, McpException e) {
    JsonObject error = error(id, e.code(), e.getMessage());
    if (e.data() != null) {
      error.getJsonObject("error").put("data", e.data());
    }
    return error;
  }

  public static JsonObject notification(String method, JsonObject params) {
    JsonObject json = new JsonObject().put("jsonrpc", "2.0").put("method", method);
    if (params != null) {
      json.put("params", params);
    }
    return json;
  }

  public static JsonObject request(Object id, String method, JsonObject params) {
    return notification(method, params).put("id", id);
  }

  /** A request has a method and an id; a notification a method only; a response an id only. */
  public static boolean isRequest(JsonObject message) {
    return message.getValue("method") != null && message.containsKey("id");
  }

  public static boolean isResponse(JsonObject message) {
    return message.getValue("method") == null
        && message.containsKey("id")
        && (message.containsKey("result") || message.containsKey("error"));
  }

  /**
   * Checks the envelope; returns null when well-formed, else the reason. Ids must be strings or
   * integers (MCP forbids null ids).
   */
  public static String envelopeProblem(JsonObject message) {
    if (!"2.0".equals(message.getValue("jsonrpc"))) {
      return "\"jsonrpc\" must be \"2.0\"";
    }
    Object id = message.getValue("id");
    if (message.containsKey("id")
        && !(id instanceof String || id instanceof Integer || id instanceof Long)) {
      return "\"id\" must be a string or an integer";
    }
    Object method = message.getValue("method");
    if (method != null && !(method instanceof String)) {
      return "\"method\" must be a string";
    }
    if (method == null && !isResponse(message)) {
      return "a message needs a \"method\", or an \"id\" with a \"result\" or \"error\"";
    }
    Object params = message.getValue("params");
    if (params != null && !(params instanceof JsonObject)) {
      return "\"params\" must be an object";
    }
    return null;
  }
}
