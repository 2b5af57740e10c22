package dev.sonde.web;

import dev.sonde.mcp.ParamHeader;
import dev.sonde.mcp.RequestMeta;
import dev.sonde.mcp.WireJson;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The 2026-07-28 request headers that mirror the body ({@code MCP-Protocol-Version}, {@code
 * Mcp-Method}, {@code Mcp-Name}, and a tool's {@code Mcp-Param-*}), so a proxy routing on them and
 * Sonde acting on the body cannot disagree: a missing or different header is a {@code
 * HeaderMismatch}.
 */
final class McpRequestHeaders {
  static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
  static final String METHOD = "Mcp-Method";
  static final String NAME = "Mcp-Name";
  private static final String BASE64_START = "=?base64?";
  private static final String BASE64_END = "?=";

  private McpRequestHeaders() {}

  /**
   * Null when the headers agree with the body; else what is wrong, said for the client. {@code
   * paramHeaders} names the parameters a tool's calls repeat in {@code Mcp-Param-*} headers.
   */
  static String mismatch(
      HttpServerRequest request,
      JsonObject message,
      Function<String, List<ParamHeader>> paramHeaders) {
    String ambiguous = ambiguous(request);
    if (ambiguous != null) {
      return ambiguous;
    }
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
    if (!method.equals("tools/call")) {
      return null;
    }
    JsonObject arguments =
        params.getValue("arguments") instanceof JsonObject given ? given : new JsonObject();
    for (ParamHeader param : paramHeaders.apply(decoded)) {
      String problem =
          paramMismatch(request.getHeader(ParamHeader.PREFIX + param.name()), param, arguments);
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /**
   * A header a proxy and Sonde could read differently: an MCP header sent twice (a proxy may take
   * the last, or join them), or a look-alike with underscores (a CGI-style gateway reads {@code
   * Mcp_Name} as {@code Mcp-Name}). Null when there is none.
   */
  private static String ambiguous(HttpServerRequest request) {
    for (String name : request.headers().names()) {
      String lower = name.toLowerCase(Locale.ROOT);
      String hyphenated = lower.replace('_', '-');
      boolean mirrors =
          hyphenated.equals("mcp-protocol-version")
              || hyphenated.equals("mcp-method")
              || hyphenated.equals("mcp-name")
              || hyphenated.startsWith(ParamHeader.PREFIX.toLowerCase(Locale.ROOT));
      if (mirrors && !hyphenated.equals(lower)) {
        return "the header " + name + " is not an MCP header; spell it with hyphens";
      }
      if (mirrors && request.headers().getAll(name).size() > 1) {
        return "the " + name + " header is sent more than once; send it once";
      }
    }
    return null;
  }

  /** Whether one {@code Mcp-Param-*} header repeats its argument: null when it does. */
  private static String paramMismatch(String header, ParamHeader param, JsonObject arguments) {
    String name = ParamHeader.PREFIX + param.name();
    String expected = param.expected(arguments);
    if (header == null) {
      return expected == null
          ? null
          : "missing the " + name + " header (it must repeat " + param.argument() + ")";
    }
    if (expected == null) {
      return "the " + name + " header is sent but " + param.argument() + " is not";
    }
    String decoded = decode(header);
    if (decoded == null) {
      return "the "
          + name
          + " header is not valid: use plain visible ASCII, or =?base64?...?= with padded"
          + " standard base64 of UTF-8";
    }
    return decoded.equals(expected)
        ? null
        : "the " + name + " header does not match " + param.argument();
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
      String encoded = value.substring(BASE64_START.length(), value.length() - BASE64_END.length());
      try {
        byte[] bytes = Base64.getDecoder().decode(encoded);
        // one encoding per value: Java's decoder takes unpadded input and set unused bits
        // (c2NyYXRjaB==), which would let a proxy keying on the raw header see another value
        if (!Base64.getEncoder().encodeToString(bytes).equals(encoded)) {
          return null;
        }
        return WireJson.utf8(bytes);
      } catch (IllegalArgumentException | WireJson.Invalid e) {
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
