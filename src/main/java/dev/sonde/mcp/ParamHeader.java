package dev.sonde.mcp;

import dev.sonde.tools.Arg;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A tool parameter that 2026-07-28 clients mirror into the HTTP header {@code Mcp-Param-{name}}
 * (its schema's {@code x-mcp-header}, SEP-2243): the header's name, the chain of {@code properties}
 * keys that reaches the parameter, and its JSON Schema type.
 */
public record ParamHeader(String name, List<String> path, String type) {
  public static final String PREFIX = "Mcp-Param-";
  private static final Set<String> MIRRORABLE = Set.of("string", "integer", "boolean");

  /**
   * The mirrored parameters of a tool's input schema. A client drops a tool whose annotation breaks
   * the spec's rules, so such a tool is refused here, at registration, naming the rule.
   */
  static List<ParamHeader> of(String tool, JsonObject inputSchema) {
    List<ParamHeader> found = new ArrayList<>();
    collect(tool, inputSchema, true, List.of(), found);
    Set<String> names = new HashSet<>();
    for (ParamHeader header : found) {
      if (!names.add(header.name().toLowerCase(Locale.ROOT))) {
        throw invalid(tool, header.name(), "is used twice (header names ignore case)");
      }
    }
    return List.copyOf(found);
  }

  /**
   * What the header must carry for {@code arguments}: the value as text ({@code true}, {@code 42}),
   * or null when the arguments hold none there, and the header must then be absent.
   */
  public String expected(JsonObject arguments) {
    Object value = arguments;
    for (String key : path) {
      if (!(value instanceof JsonObject object)) {
        return null;
      }
      value = object.getValue(key);
    }
    if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      return number == Math.rint(number) ? Long.toString((long) number) : value.toString();
    }
    return value instanceof String || value instanceof Number || value instanceof Boolean
        ? value.toString()
        : null;
  }

  /** The argument the header repeats, as a client reads it: {@code arguments.connection}. */
  public String argument() {
    return "arguments." + String.join(".", path);
  }

  /**
   * Walks the schema: an annotation counts where a chain of {@code properties} keys alone reaches
   * it, and anywhere else (items, anyOf, $defs...) it makes the tool invalid.
   */
  private static void collect(
      String tool, Object node, boolean reachable, List<String> path, List<ParamHeader> found) {
    if (node instanceof JsonArray array) {
      array.forEach(item -> collect(tool, item, false, path, found));
      return;
    }
    if (!(node instanceof JsonObject schema)) {
      return;
    }
    if (schema.containsKey(Arg.MIRRORED_AS)) {
      found.add(annotated(tool, schema, reachable, path));
    }
    for (String keyword : schema.fieldNames()) {
      Object value = schema.getValue(keyword);
      if (keyword.equals("properties") && reachable && value instanceof JsonObject properties) {
        for (String property : properties.fieldNames()) {
          List<String> deeper = new ArrayList<>(path);
          deeper.add(property);
          collect(tool, properties.getValue(property), true, List.copyOf(deeper), found);
        }
      } else if (!keyword.equals(Arg.MIRRORED_AS)) {
        collect(tool, value, false, path, found);
      }
    }
  }

  private static ParamHeader annotated(
      String tool, JsonObject schema, boolean reachable, List<String> path) {
    Object name = schema.getValue(Arg.MIRRORED_AS);
    if (!(name instanceof String header) || !isToken(header)) {
      throw invalid(tool, String.valueOf(name), "is not an HTTP header name (RFC 9110 token)");
    }
    if (!reachable || path.isEmpty()) {
      throw invalid(tool, header, "is not on a property reached through properties alone");
    }
    Object type = schema.getValue("type");
    if (!(type instanceof String primitive) || !MIRRORABLE.contains(primitive)) {
      throw invalid(
          tool, header, "is on a " + type + " property, not a string, integer or boolean");
    }
    return new ParamHeader(header, path, primitive);
  }

  /** RFC 9110's {@code 1*tchar}. */
  private static boolean isToken(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alphanumeric = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
      if (!alphanumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }

  private static IllegalStateException invalid(String tool, String header, String why) {
    return new IllegalStateException(
        "tool " + tool + ": " + Arg.MIRRORED_AS + " '" + header + "' " + why);
  }
}
