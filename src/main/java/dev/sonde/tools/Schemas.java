package dev.sonde.tools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Small builders for the JSON Schemas of tool inputs and outputs. */
public final class Schemas {
  private Schemas() {}

  /** An object schema that admits no properties beyond those added with {@link #prop}. */
  public static JsonObject object() {
    return new JsonObject()
        .put("type", "object")
        .put("properties", new JsonObject())
        .put("additionalProperties", false);
  }

  /**
   * An object schema for structured results: it lists what is always there without forbidding more,
   * so adding a field never breaks a client that validates results.
   */
  public static JsonObject result() {
    return new JsonObject().put("type", "object").put("properties", new JsonObject());
  }

  /**
   * A result schema with required properties of plain types, given as name, type pairs: {@code
   * result("tables", "array", "count", "integer")}.
   */
  public static JsonObject result(String... namesAndTypes) {
    if (namesAndTypes.length % 2 != 0) {
      throw new IllegalArgumentException("names and types come in pairs");
    }
    JsonObject schema = result();
    for (int i = 0; i < namesAndTypes.length; i += 2) {
      prop(schema, namesAndTypes[i], new JsonObject().put("type", namesAndTypes[i + 1]), true);
    }
    return schema;
  }

  public static JsonObject prop(
      JsonObject schema, String name, JsonObject property, boolean required) {
    schema.getJsonObject("properties").put(name, property);
    if (required) {
      JsonArray list = schema.getJsonArray("required");
      if (list == null) {
        list = new JsonArray();
        schema.put("required", list);
      }
      list.add(name);
    }
    return schema;
  }

  public static JsonObject string(String description) {
    return new JsonObject().put("type", "string").put("description", description);
  }

  public static JsonObject integer(String description, int min, int max) {
    return new JsonObject()
        .put("type", "integer")
        .put("description", description)
        .put("minimum", min)
        .put("maximum", max);
  }
}
