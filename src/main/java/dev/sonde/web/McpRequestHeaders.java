package dev.sonde.web;

import dev.sonde.mcp.RequestMeta;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The 2026-07-28 request headers that mirror the body ({@code MCP-Protocol-Version}, {@code
 * Mcp-Method}, {@code Mcp-Name}), so a proxy routing on them and Sonde acting on the body cannot
 * disagree: a missing or different header is a {@code HeaderMismatch}.
 */
final class McpRequestHeaders {
  static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
  static final String METHOD = "Mcp-Method";
  static final String NAME = "Mcp-Name";
  private static final String BASE64_START = "=?base64?";
  private static final String BASE64_END = "?=";

  private McpRequestHeaders() {}

  /** Null when the headers agree with the body; else what is wrong, said for the client. */
  static String mismatch(HttpServerRequest request, JsonObject message) {
    String version = request.getHeader(PROTOCOL_VERSION);
    JsonObject params = message.getJsonObject("params", new JsonObject());
    Object bodyVersion = params.getJsonObject("_meta").getValue(RequestMeta.PROTOCOL_VERSION);
    if (version == null) {
      return "missing the MCP-Protocol-Version header (it must repeat _meta's "
          + RequestMeta.PROTOCOL_VERSION
          + ")";
    }
    if (!version.equals(bodyVersion)) {
      return "the MCP-Protocol-Version header "
          + version
          + " does not match _meta's "
          + RequestMeta.PROTOCOL_VERSION
          + " "
          + bodyVersion;
    }
    String method = message.getString("method");
    String methodHeader = request.getHeader(METHOD);
    if (methodHeader == null) {
      return "missing the Mcp-Method header (it must repeat the method, " + method + ")";
    }
    if (!methodHeader.equals(method)) {
      return "the Mcp-Method header " + methodHeader + " does not match the method " + method;
    }
    String nameField = nameField(method);
    if (nameField == null) {
      return null;
    }
    String name = request.getHeader(NAME);
    if (name == null) {
      return "missing the Mcp-Name header (it must repeat params." + nameField + ")";
    }
    String decoded = decode(name);
    if (decoded == null) {
      return "the Mcp-Name header is not valid: use plain visible ASCII, or =?base64?...?=";
    }
    Object body = params.getValue(nameField);
    if (!decoded.equals(body)) {
      return "the Mcp-Name header does not match params." + nameField;
    }
    return null;
  }

  /** The body field {@code Mcp-Name} mirrors for a method, or null when it has none. */
  private static String nameField(String method) {
    return switch (method) {
      case "tools/call", "prompts/get" -> "name";
      case "resources/read" -> "uri";
      case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
      default -> null;
    };
  }

  /**
   * A header value as the client meant it: plain visible ASCII as is, the base64 sentinel form
   * decoded as UTF-8; null when it is neither.
   */
  static String decode(String value) {
    if (value.startsWith(BASE64_START)
        && value.endsWith(BASE64_END)
        && value.length() >= BASE64_START.length() + BASE64_END.length()) {
      try {
        byte[] bytes =
            Base64.getDecoder()
                .decode(
                    value.substring(BASE64_START.length(), value.length() - BASE64_END.length()));
        return new String(bytes, StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\t' && (c < 0x20 || c > 0x7e)) {
        return null;
      }
    }
    return value;
  }
}
