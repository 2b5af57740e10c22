package dev.sonde.mcp;

import dev.sonde.config.LogLevel;
import dev.sonde.core.Quote;
import io.vertx.core.json.JsonObject;

/**
 * What a modern (2026-07-28) request says about its client in {@code _meta}: the protocol version,
 * the capabilities declared for this request only, who the client is, and the log level it wants
 * (none: no log notifications).
 */
public record RequestMeta(
    String protocolVersion, JsonObject clientCapabilities, JsonObject clientInfo, String logLevel) {
  public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  public static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
  public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  /** Whether a message's params carry the modern era's version key: the era is chosen by it. */
  public static boolean isModern(JsonObject message) {
    return message.getValue("params") instanceof JsonObject params
        && params.getValue("_meta") instanceof JsonObject meta
        && meta.containsKey(PROTOCOL_VERSION);
  }

  /** The first key every modern request's {@code _meta} must carry that {@code params} lacks. */
  public static String missingKey(JsonObject params) {
    JsonObject meta =
        params != null && params.getValue("_meta") instanceof JsonObject m ? m : new JsonObject();
    for (String key : new String[] {PROTOCOL_VERSION, CLIENT_CAPABILITIES}) {
      if (!meta.containsKey(key)) {
        return key;
      }
    }
    return null;
  }

  /**
   * The request's metadata; an unsupported version is -32022 listing the versions spoken, a missing
   * or malformed key -32602 naming it.
   */
  public static RequestMeta of(JsonObject params) {
    JsonObject meta = params.getJsonObject("_meta");
    Object version = meta.getValue(PROTOCOL_VERSION);
    if (!(version instanceof String v) || !ProtocolVersions.isModern(v)) {
      throw new McpException(
          JsonRpc.UNSUPPORTED_PROTOCOL_VERSION,
          "Unsupported protocol version "
              + Quote.of(String.valueOf(version))
              + "; this server speaks "
              + ProtocolVersions.MODERN_SUPPORTED
              + " per request, and "
              + ProtocolVersions.SUPPORTED
              + " after initialize",
          new JsonObject()
              .put("supported", ProtocolVersions.MODERN_SUPPORTED)
              .put("requested", String.valueOf(version)));
    }
    if (!(meta.getValue(CLIENT_CAPABILITIES) instanceof JsonObject capabilities)) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS,
          "_meta needs \"" + CLIENT_CAPABILITIES + "\" (an object; {} when the client has none)");
    }
    Object info = meta.getValue(CLIENT_INFO);
    Object level = meta.getValue(LOG_LEVEL);
    if (level != null && !(level instanceof String l && LogLevel.isKnown(l))) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS,
          "unknown "
              + LOG_LEVEL
              + " "
              + Quote.of(String.valueOf(level))
              + "; use one of "
              + LogLevel.NAMES);
    }
    return new RequestMeta(
        v,
        capabilities,
        info instanceof JsonObject i ? i : new JsonObject(),
        level == null ? null : (String) level);
  }
}
