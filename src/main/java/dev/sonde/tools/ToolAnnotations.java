package dev.sonde.tools;

import io.vertx.core.json.JsonObject;

/** The behaviour hints of MCP tool annotations; null means "not said". */
public record ToolAnnotations(
    Boolean readOnlyHint, Boolean destructiveHint, Boolean idempotentHint, Boolean openWorldHint) {

  public static final ToolAnnotations READ_ONLY = new ToolAnnotations(true, false, true, false);

  public JsonObject toJson(String title) {
    JsonObject json = new JsonObject();
    if (title != null) {
      json.put("title", title);
    }
    putIfSet(json, "readOnlyHint", readOnlyHint);
    putIfSet(json, "destructiveHint", destructiveHint);
    putIfSet(json, "idempotentHint", idempotentHint);
    putIfSet(json, "openWorldHint", openWorldHint);
    return json;
  }

  private static void putIfSet(JsonObject json, String key, Boolean value) {
    if (value != null) {
      json.put(key, value);
    }
  }
}
