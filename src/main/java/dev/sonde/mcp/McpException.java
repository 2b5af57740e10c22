package dev.sonde.mcp;

/** A protocol problem, answered as a JSON-RPC error with this code and message. */
public final class McpException extends RuntimeException {
  private final int code;

  public McpException(int code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public int code() {
    return code;
  }
}
