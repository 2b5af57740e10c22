package dev.sonde.mcp;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A fast accept for the input schema most tools have: an object of strings, integers, numbers and
 * booleans, with string enums, lengths and bounds. It says "valid" only where the JSON Schema
 * validator would; whatever it is unsure of goes to that validator, which also words the errors.
 * The validator walks its schema on every call, which on a hot tool cost about a tenth of the CPU.
 */
final class QuickArgumentCheck {
  private static final Set<String> ROOT_KEYS =
      Set.of("type", "properties", "required", "additionalProperties", "description", "title");

  /**
   * What a property may hold; {@code default} and {@code x-mcp-header} only annotate, the validator
   * never checks them.
   */
  private static final Set<String> PROPERTY_KEYS =
      Set.of(
          "type",
          "description",
          "title",
          "default",
          "x-mcp-header",
          "enum",
          "minLength",
          "maxLength",
          "minimum",
          "maximum");

  private static final long MAX_EXACT = 1L << 53;

  /** One property's rules; bounds are null when absent. */
  private record Rule(
      String type,
      List<Object> allowed,
      Integer minLength,
      Integer maxLength,
      Double minimum,
      Double maximum) {}

  private final Map<String, Rule> rules;
  private final List<String> required;
  private final boolean closed;

  private QuickArgumentCheck(Map<String, Rule> rules, List<String> required, boolean closed) {
    this.rules = rules;
    this.required = required;
    this.closed = closed;
  }

  /** The check for {@code schema}, or null when it uses anything beyond the simple subset. */
  static QuickArgumentCheck of(JsonObject schema) {
    if (!"object".equals(schema.getValue("type")) || !ROOT_KEYS.containsAll(schema.fieldNames())) {
      return null;
    }
    Object additional = schema.getValue("additionalProperties");
    if (additional != null && !Boolean.FALSE.equals(additional)) {
      return null;
    }
    JsonObject properties = schema.getJsonObject("properties", new JsonObject());
    Map<String, Rule> rules = new HashMap<>();
    for (String name : properties.fieldNames()) {
      Rule rule = rule(properties.getValue(name));
      if (rule == null) {
        return null;
      }
      rules.put(name, rule);
    }
    List<String> required = List.of();
    if (schema.containsKey("required")) {
      if (!(schema.getValue("required") instanceof JsonArray names)
          || !names.stream().allMatch(String.class::isInstance)) {
        return null;
      }
      required = names.stream().map(String.class::cast).toList();
    }
    return new QuickArgumentCheck(rules, required, additional != null);
  }

  private static Rule rule(Object definition) {
    if (!(definition instanceof JsonObject p) || !PROPERTY_KEYS.containsAll(p.fieldNames())) {
      return null;
    }
    if (!(p.getValue("type") instanceof String type)
        || !Set.of("string", "integer", "number", "boolean").contains(type)) {
      return null;
    }
    List<Object> allowed = null;
    if (p.containsKey("enum")) {
      // only string enums: JSON Schema compares numbers by value (1 equals 1.0)
      if (!type.equals("string")
          || !(p.getValue("enum") instanceof JsonArray values)
          || !values.stream().allMatch(String.class::isInstance)) {
        return null;
      }
      allowed = values.getList();
    }
    try {
      return new Rule(
          type,
          allowed,
          p.getInteger("minLength"),
          p.getInteger("maxLength"),
          p.getDouble("minimum"),
          p.getDouble("maximum"));
    } catch (ClassCastException e) {
      return null;
    }
  }

  /** True only when the arguments certainly fit; false means "ask the full validator". */
  boolean accepts(JsonObject arguments) {
    for (String name : required) {
      if (!arguments.containsKey(name)) {
        return false;
      }
    }
    for (Map.Entry<String, Object> argument : arguments) {
      Rule rule = rules.get(argument.getKey());
      if (rule == null ? closed : !fits(rule, argument.getValue())) {
        return false;
      }
    }
    return true;
  }

  private static boolean fits(Rule rule, Object value) {
    return switch (rule.type()) {
      case "string" -> value instanceof String s && fitsString(rule, s);
      case "integer" ->
          (value instanceof Integer || value instanceof Long)
              && Math.abs(((Number) value).longValue()) <= MAX_EXACT
              && inBounds(rule, ((Number) value).doubleValue());
      case "number" ->
          (value instanceof Integer || value instanceof Long || value instanceof Double)
              && Double.isFinite(((Number) value).doubleValue())
              && !(value instanceof Long l && Math.abs(l) > MAX_EXACT)
              && inBounds(rule, ((Number) value).doubleValue());
      default -> value instanceof Boolean;
    };
  }

  private static boolean fitsString(Rule rule, String s) {
    if (rule.allowed() != null && !rule.allowed().contains(s)) {
      return false;
    }
    if (rule.minLength() == null && rule.maxLength() == null) {
      return true;
    }
    int length = s.codePointCount(0, s.length());
    return (rule.minLength() == null || length >= rule.minLength())
        && (rule.maxLength() == null || length <= rule.maxLength());
  }

  private static boolean inBounds(Rule rule, double value) {
    return (rule.minimum() == null || value >= rule.minimum())
        && (rule.maximum() == null || value <= rule.maximum());
  }
}
