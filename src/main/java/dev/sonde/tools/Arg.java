package dev.sonde.tools;

import static io.vertx.json.schema.common.dsl.Schemas.arraySchema;
import static io.vertx.json.schema.common.dsl.Schemas.booleanSchema;
import static io.vertx.json.schema.common.dsl.Schemas.intSchema;
import static io.vertx.json.schema.common.dsl.Schemas.objectSchema;
import static io.vertx.json.schema.common.dsl.Schemas.stringSchema;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.common.dsl.ArrayKeyword;
import io.vertx.json.schema.common.dsl.Keywords;
import io.vertx.json.schema.common.dsl.ObjectSchemaBuilder;
import io.vertx.json.schema.common.dsl.SchemaBuilder;
import io.vertx.json.schema.common.dsl.StringKeyword;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One argument of a tool, declared once: its name, its JSON Schema (built with the
 * vertx-json-schema DSL), whether it is required, its default, and how its value is read. A tool's
 * input schema is made of its arguments ({@link ToolSpec.Builder#input(Arg...)}) and the tool reads
 * each with {@link ToolContext#arg}, so what clients are told and what the tool gets cannot drift.
 * Values reach the tool already checked against the schema, so reading one is a plain cast.
 */
public final class Arg<T> {
  /** The schema keyword naming the header a parameter is mirrored into (SEP-2243). */
  public static final String MIRRORED_AS = "x-mcp-header";

  private final String name;
  private final String description;
  private final Supplier<SchemaBuilder<?, ?>> type;
  private final Function<Object, T> read;
  private final List<Arg<?>> fields;
  private final boolean required;
  private final T fallback;

  private Arg(
      String name,
      String description,
      Supplier<SchemaBuilder<?, ?>> type,
      Function<Object, T> read,
      List<Arg<?>> fields,
      boolean required,
      T fallback) {
    this.name = name;
    this.description = description;
    this.type = type;
    this.read = read;
    this.fields = fields;
    this.required = required;
    this.fallback = fallback;
  }

  /** A string with its bounds: {@code string("sql", "One statement", minLength(1))}. */
  public static Arg<String> string(String name, String description, StringKeyword... bounds) {
    return of(name, description, () -> stringSchema().with(bounds), String.class::cast);
  }

  /** One of {@code values}. */
  public static Arg<String> oneOf(String name, String description, List<String> values) {
    JsonArray allowed = new JsonArray(List.copyOf(values));
    return of(
        name,
        description,
        () -> stringSchema().withKeyword("enum", allowed.copy()),
        String.class::cast);
  }

  public static Arg<String> oneOf(String name, String description, String... values) {
    return oneOf(name, description, List.of(values));
  }

  public static Arg<Integer> integer(String name, String description, int minimum, int maximum) {
    return of(
        name,
        description,
        () -> intSchema().with(Keywords.minimum(minimum), Keywords.maximum(maximum)),
        value -> ((Number) value).intValue());
  }

  public static Arg<Boolean> flag(String name, String description) {
    return of(name, description, () -> booleanSchema(), Boolean.class::cast);
  }

  /** A list of strings with its bounds: {@code strings("table_names", "…", maxItems(50))}. */
  public static Arg<List<String>> strings(String name, String description, ArrayKeyword... bounds) {
    return of(
        name,
        description,
        () -> arraySchema().items(stringSchema()).with(bounds),
        value -> ((JsonArray) value).stream().map(String.class::cast).toList());
  }

  /** An object of {@code fields} and nothing else, read whole. */
  public static Arg<JsonObject> object(String name, String description, Arg<?>... fields) {
    List<Arg<?>> declared = List.of(fields);
    return new Arg<>(
        name, description, () -> objectOf(declared), JsonObject.class::cast, declared, false, null);
  }

  /** A list of objects, each of {@code fields} and nothing else, read whole. */
  public static Arg<JsonArray> objects(String name, String description, Arg<?>... fields) {
    List<Arg<?>> declared = List.of(fields);
    return new Arg<>(
        name,
        description,
        () -> arraySchema().items(objectOf(declared)),
        JsonArray.class::cast,
        declared,
        false,
        null);
  }

  /** Any other schema, read as the JSON value it is. */
  public static Arg<Object> of(
      String name, String description, Supplier<SchemaBuilder<?, ?>> type) {
    return of(name, description, type, Function.identity());
  }

  private static <T> Arg<T> of(
      String name,
      String description,
      Supplier<SchemaBuilder<?, ?>> type,
      Function<Object, T> read) {
    return new Arg<>(name, description, type, read, List.of(), false, null);
  }

  /** The same argument, required. */
  public Arg<T> required() {
    return new Arg<>(name, description, type, read, fields, true, fallback);
  }

  /** The same argument with a default: published in the schema, read when the caller omits it. */
  public Arg<T> orElse(T value) {
    return new Arg<>(name, description, type, read, fields, required, value);
  }

  /**
   * The same argument, which 2026-07-28 clients mirror into the HTTP header {@code
   * Mcp-Param-{header}} ({@code x-mcp-header}), so a proxy can route on it without reading the
   * body.
   */
  public Arg<T> mirroredAs(String header) {
    Supplier<SchemaBuilder<?, ?>> plain = type;
    return new Arg<>(
        name,
        description,
        () -> plain.get().withKeyword(MIRRORED_AS, header),
        read,
        fields,
        required,
        fallback);
  }

  /** The same argument, described for another tool. */
  public Arg<T> describedAs(String other) {
    return new Arg<>(name, other, type, read, fields, required, fallback);
  }

  public String name() {
    return name;
  }

  /** The value in {@code args}, or the default (null without one) when it is absent. */
  T from(JsonObject args) {
    Object value = args.getValue(name);
    return value == null ? fallback : read.apply(value);
  }

  /** A tool's input schema: an object holding exactly {@code fields}. */
  static JsonObject objectJson(List<Arg<?>> fields) {
    return inOrder(Schemas.tidy(objectOf(fields).toJson()), fields);
  }

  private SchemaBuilder<?, ?> schema() {
    SchemaBuilder<?, ?> schema = type.get();
    schema.withKeyword("description", description);
    if (fallback != null) {
      schema.defaultValue(fallback);
    }
    return schema;
  }

  private static ObjectSchemaBuilder objectOf(List<Arg<?>> fields) {
    ObjectSchemaBuilder object = objectSchema().allowAdditionalProperties(false);
    for (Arg<?> field : fields) {
      if (object.getProperties().containsKey(field.name)) {
        throw new IllegalArgumentException("argument " + field.name + " is declared twice");
      }
      if (field.required) {
        object.requiredProperty(field.name, field.schema());
      } else {
        object.optionalProperty(field.name, field.schema());
      }
    }
    return object;
  }

  /**
   * Properties and required names in declaration order, of an object or of a list's objects: the
   * DSL keeps them in hash order.
   */
  private static JsonObject inOrder(JsonObject schema, List<Arg<?>> fields) {
    if (fields.isEmpty()) {
      return schema;
    }
    if (schema.getValue("items") instanceof JsonObject items) {
      return schema.put("items", inOrder(items, fields));
    }
    JsonObject built = schema.getJsonObject("properties");
    JsonObject properties = new JsonObject();
    JsonArray required = new JsonArray();
    for (Arg<?> field : fields) {
      properties.put(field.name, inOrder(built.getJsonObject(field.name), field.fields));
      if (field.required) {
        required.add(field.name);
      }
    }
    schema.put("properties", properties);
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    return schema;
  }
}
