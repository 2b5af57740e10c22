package dev.sonde.tools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * Sonde's input bounds, how the schemas Args build are published, and small builders for the JSON
 * Schemas of tool outputs (and of what a tool asks a client for).
 */
public final class Schemas {
  /** The longest input string without a limit of its own: a name, an identifier, a path. */
  public static final int NAME_LENGTH = 1024;

  /** The longest SQL text a schema admits; each connection's maxSqlLength may refuse sooner. */
  public static final int SQL_LENGTH = 65_536;

  /** The longest question in natural language. */
  public static final int QUESTION_LENGTH = 4000;

  /** The longest free text a caller writes into a saved file, such as a report's findings. */
  public static final int TEXT_LENGTH = 32_768;

  /** The order keywords are published in, whatever order the vertx-json-schema DSL gives. */
  private static final List<String> KEYWORD_ORDER =
      List.of(
          "type",
          "description",
          "enum",
          "minLength",
          "maxLength",
          "minimum",
          "maximum",
          "minItems",
          "maxItems",
          "default",
          "items",
          "anyOf",
          "properties",
          "additionalProperties",
          "required");

  /** Keywords the DSL writes as doubles ({@code minimum(1)} gives 1.0). */
  private static final Set<String> NUMBER_KEYWORDS =
      Set.of("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf");

  /** The prefix of the {@code $id} the DSL gives every schema it builds. */
  private static final String GENERATED_ID = "urn:vertxschemas:";

  private Schemas() {}

  /**
   * A schema from the vertx-json-schema DSL as Sonde publishes it, at every depth: without the
   * random {@code $id} the DSL adds (the listing would change on every start), integral bounds as
   * integers, keywords in {@link #KEYWORD_ORDER}.
   */
  static JsonObject tidy(JsonObject schema) {
    JsonObject out = new JsonObject();
    for (String keyword : KEYWORD_ORDER) {
      if (schema.containsKey(keyword)) {
        out.put(keyword, tidy(keyword, schema.getValue(keyword)));
      }
    }
    schema.forEach(
        entry -> {
          boolean generatedId =
              entry.getKey().equals("$id")
                  && entry.getValue() instanceof String id
                  && id.startsWith(GENERATED_ID);
          if (!out.containsKey(entry.getKey()) && !generatedId) {
            out.put(entry.getKey(), tidy(entry.getKey(), entry.getValue()));
          }
        });
    return out;
  }

  private static Object tidy(String keyword, Object value) {
    if (NUMBER_KEYWORDS.contains(keyword) && value instanceof Double d && d == Math.rint(d)) {
      long whole = d.longValue();
      return whole == (int) whole ? (Object) (int) whole : (Object) whole;
    }
    return switch (keyword) {
      case "properties" -> {
        JsonObject properties = new JsonObject();
        ((JsonObject) value)
            .forEach(p -> properties.put(p.getKey(), tidy((JsonObject) p.getValue())));
        yield properties;
      }
      case "items", "additionalProperties", "not" ->
          value instanceof JsonObject sub ? tidy(sub) : value;
      case "anyOf", "oneOf", "allOf" ->
          new JsonArray(
              ((JsonArray) value).stream().map(s -> (Object) tidy((JsonObject) s)).toList());
      default -> value;
    };
  }

  /** An object schema that admits no properties: the input of a tool without arguments. */
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

  /**
   * {@code inputSchema} with {@link #NAME_LENGTH} as the {@code maxLength} of every string, at any
   * depth, that has neither a limit nor an enum of its own: an unbounded string lets one call spend
   * seconds of a worker on a megabyte of text. The schema given is not changed.
   */
  public static JsonObject bounded(JsonObject inputSchema) {
    JsonObject copy = inputSchema.copy();
    bound(copy);
    return copy;
  }

  private static void bound(Object schemaPart) {
    if (schemaPart instanceof JsonArray array) {
      array.forEach(Schemas::bound);
      return;
    }
    if (!(schemaPart instanceof JsonObject schema)) {
      return;
    }
    if (isString(schema.getValue("type"))
        && !schema.containsKey("maxLength")
        && !schema.containsKey("enum")
        && !schema.containsKey("const")) {
      schema.put("maxLength", NAME_LENGTH);
    }
    schema.forEach(entry -> bound(entry.getValue()));
  }

  private static boolean isString(Object type) {
    return "string".equals(type) || type instanceof JsonArray types && types.contains("string");
  }
}
