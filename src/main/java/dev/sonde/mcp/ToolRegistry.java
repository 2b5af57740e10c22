package dev.sonde.mcp;

import dev.sonde.core.Quote;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The tools of the deployed families, in registration order, each with its compiled input
 * validator. {@code tools/list} is rendered from here; {@code tools/call} resolves here.
 */
public final class ToolRegistry {
  /** The characters of one validator error kept in the explanation. */
  private static final int EXPLAINED_ERROR = 160;

  /**
   * A tool as the protocol engine sees it: its spec, the family that answers it, its validators
   * ({@code quick} is null for a schema beyond its subset), and the parameters HTTP clients repeat
   * in headers.
   */
  public record RegisteredTool(
      ToolSpec spec,
      String family,
      QuickArgumentCheck quick,
      Validator check,
      Validator explain,
      boolean acceptsNoArguments,
      List<ParamHeader> headers) {}

  private final Map<String, RegisteredTool> tools = new LinkedHashMap<>();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile List<JsonObject> listing = List.of();

  public synchronized void register(String family, List<ToolSpec> specs) {
    for (ToolSpec spec : specs) {
      if (tools.containsKey(spec.name())) {
        throw new IllegalStateException(
            "tool "
                + spec.name()
                + " is registered twice ("
                + tools.get(spec.name()).family()
                + " and "
                + family
                + ")");
      }
      Validator check = compile(spec, OutputFormat.Flag);
      // the verdict on {} never changes, and argument-less calls are the most common ones
      boolean acceptsNoArguments = Boolean.TRUE.equals(check.validate(new JsonObject()).getValid());
      tools.put(
          spec.name(),
          new RegisteredTool(
              spec,
              family,
              QuickArgumentCheck.of(spec.inputSchema()),
              check,
              compile(spec, OutputFormat.Basic),
              acceptsNoArguments,
              ParamHeader.of(spec.name(), spec.inputSchema())));
    }
    listing = tools.values().stream().map(t -> t.spec().toJson()).toList();
    listeners.forEach(Runnable::run);
  }

  /** Runs after every change (to send {@code notifications/tools/list_changed}). */
  public void onChange(Runnable listener) {
    listeners.add(listener);
  }

  public RegisteredTool get(String name) {
    synchronized (this) {
      return tools.get(name);
    }
  }

  /** The parameters a tool's HTTP calls repeat in {@code Mcp-Param-*} headers; none if unknown. */
  public List<ParamHeader> headers(String name) {
    RegisteredTool tool = get(name);
    return tool == null ? List.of() : tool.headers();
  }

  public List<JsonObject> listing() {
    return listing;
  }

  /** Tool names per family, in registration order. */
  public synchronized Map<String, List<String>> namesByFamily() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    tools
        .values()
        .forEach(t -> out.computeIfAbsent(t.family(), f -> new ArrayList<>()).add(t.spec().name()));
    return out;
  }

  /** Returns null when the arguments fit the tool's schema, else what to change. */
  public static String validate(RegisteredTool tool, JsonObject arguments) {
    if (arguments.isEmpty() && tool.acceptsNoArguments()) {
      return null;
    }
    if (tool.quick() != null && tool.quick().accepts(arguments)) {
      return null;
    }
    // the flag format only answers valid or not, cheaply; the detailed one runs to word an error
    if (Boolean.TRUE.equals(tool.check().validate(arguments).getValid())) {
      return null;
    }
    List<OutputUnit> errors = new ArrayList<>();
    collect(tool.explain().validate(arguments), errors);
    List<String> problems = new ArrayList<>();
    for (OutputUnit error : errors) {
      if (!restates(error, errors)) {
        explain(error, problems);
      }
    }
    if (problems.isEmpty()) {
      problems.add("the arguments do not match the tool's input schema");
    }
    return "invalid arguments for " + tool.spec().name() + ": " + String.join("; ", problems);
  }

  private static void collect(OutputUnit unit, List<OutputUnit> out) {
    if (unit.getErrors() != null && !unit.getErrors().isEmpty()) {
      unit.getErrors().forEach(e -> collect(e, out));
    } else if (unit.getError() != null) {
      out.add(unit);
    }
  }

  /**
   * Whether {@code error} only restates another: "Property 'x' does not match schema" above the
   * rule x broke, or the validator's "does not match additional properties schema" for a property
   * the schema declares. Only the rules broken are worth reading, nested specs have many levels.
   */
  private static boolean restates(OutputUnit error, List<OutputUnit> all) {
    String rule = error.getKeywordLocation();
    if (rule == null) {
      return false;
    }
    String declared = null;
    if (rule.endsWith("/additionalProperties")) {
      String instance = error.getInstanceLocation();
      declared =
          rule.substring(0, rule.length() - "additionalProperties".length())
              + "properties/"
              + instance.substring(instance.lastIndexOf('/') + 1)
              + "/";
    }
    for (OutputUnit other : all) {
      String otherRule = String.valueOf(other.getKeywordLocation());
      if (otherRule.startsWith(rule + "/") || declared != null && otherRule.startsWith(declared)) {
        return true;
      }
    }
    return false;
  }

  private static void explain(OutputUnit unit, List<String> out) {
    String where = fieldName(unit.getInstanceLocation());
    String rule = keyword(unit.getKeywordLocation());
    // the validator quotes a caller's property name whole; it words maxItems "( + 51 > 50)"
    String error = Quote.cut(unit.getError(), EXPLAINED_ERROR).replace("( + ", "(");
    String line = where + ": " + error + (rule.isEmpty() ? "" : " (rule: " + rule + ")");
    if (!out.contains(line) && out.size() < 10) {
      out.add(line);
    }
  }

  private static String fieldName(String instanceLocation) {
    if (instanceLocation == null || instanceLocation.isEmpty() || "#".equals(instanceLocation)) {
      return "arguments";
    }
    String path =
        instanceLocation.startsWith("#") ? instanceLocation.substring(1) : instanceLocation;
    path = path.startsWith("/") ? path.substring(1) : path;
    return path.isEmpty() ? "arguments" : "field " + Quote.of(path.replace('/', '.'));
  }

  private static String keyword(String keywordLocation) {
    if (keywordLocation == null) {
      return "";
    }
    int slash = keywordLocation.lastIndexOf('/');
    return slash < 0 ? keywordLocation : keywordLocation.substring(slash + 1);
  }

  private static Validator compile(ToolSpec spec, OutputFormat format) {
    JsonObject schema = spec.inputSchema().copy();
    return Validator.create(
        JsonSchema.of(schema),
        new JsonSchemaOptions()
            .setDraft(Draft.DRAFT202012)
            .setBaseUri("https://sonde.dev/tools/" + spec.name())
            .setOutputFormat(format));
  }
}
