package dev.sonde.mcp;

import io.vertx.core.json.JsonObject;

/** A protocol problem, answered as a JSON-RPC error with this code, message and optional data. */
public final class McpException extends RuntimeException {
  private final int code;
  private final transient JsonObject data;

  public McpException(int code, String message) {
    this(code, message, null);
  }

  public McpException(int code, String message, JsonObject data) {
    super(message, null, false, false);
    this.code = code;
    this.data = data;
  }

  public int code() {
    return code;
  }

  /** The error's {@code data}, or null. */
  public JsonObject data() {
    return data;
  }
}
