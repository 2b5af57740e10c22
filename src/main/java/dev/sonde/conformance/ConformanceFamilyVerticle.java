package dev.sonde.conformance;

import static dev.sonde.tools.Schemas.prop;
import static dev.sonde.tools.Schemas.string;

import dev.sonde.core.CallerException;
import dev.sonde.tools.Arg;
import dev.sonde.tools.CallHeaders;
import dev.sonde.tools.ClientInput;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The fixture tools that {@code @modelcontextprotocol/conformance} expects by name. Deployed only
 * with {@code --conformance}; never part of a normal server.
 */
public final class ConformanceFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "conformance";
  private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);
  private static final Arg<String> PROMPT =
      Arg.string("prompt", "The prompt to send to the LLM").required();
  private static final Arg<String> MESSAGE =
      Arg.string("message", "The message to show the user").required();

  public ConformanceFamilyVerticle(FamilyServices services) {
    super(FAMILY, services, tools());
  }

  private static List<FixtureTool> tools() {
    return Stream.of(legacyEraTools(), InputFixtures.tools(), TaskFixtures.tools())
        .flatMap(List::stream)
        .toList();
  }

  private static List<FixtureTool> legacyEraTools() {
    return List.of(
        simple(
            "test_simple_text",
            "Returns a fixed text.",
            ctx -> ToolResult.text("This is a simple text response for testing.")),
        simple(
            "test_image_content",
            "Returns a 1x1 PNG image.",
            ctx -> ToolResult.content(new JsonArray().add(image()))),
        simple(
            "test_audio_content",
            "Returns a short WAV clip.",
            ctx ->
                ToolResult.content(
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("type", "audio")
                                .put("data", Media.SILENT_WAV)
                                .put("mimeType", "audio/wav")))),
        simple(
            "test_embedded_resource",
            "Returns an embedded text resource.",
            ctx ->
                ToolResult.content(
                    new JsonArray()
                        .add(
                            resource(
                                "test://embedded-resource",
                                "text/plain",
                                "This is an embedded resource content.")))),
        simple(
            "test_multiple_content_types",
            "Returns text, an image and a resource.",
            ctx ->
                ToolResult.content(
                    new JsonArray()
                        .add(ToolResult.textBlock("Multiple content types test:"))
                        .add(image())
                        .add(
                            resource(
                                "test://mixed-content-resource",
                                "application/json",
                                "{\"test\":\"data\",\"value\":123}")))),
        simple(
            "test_trigger_tool_change",
            "Announces that the tool list changed, to every client listening for it.",
            ctx -> {
              ctx.vertx().eventBus().publish(CallHeaders.TOOLS_CHANGED_ADDRESS, new JsonObject());
              return ToolResult.text("tools/list_changed announced");
            }),
        simple(
            "test_error_handling",
            "Always fails with a tool error.",
            ctx -> {
              throw new CallerException("This tool intentionally returns an error for testing");
            }),
        job(
            "test_tool_with_logging",
            "Sends three log messages while it runs.",
            ctx -> {
              ctx.log("info", "Tool execution started");
              ctx.call().sleep(50);
              ctx.log("info", "Tool processing data");
              ctx.call().sleep(50);
              ctx.log("info", "Tool execution completed");
              return ToolResult.text("Tool with logging executed successfully");
            }),
        job(
            "test_tool_with_progress",
            "Reports progress 0, 50 and 100 of 100.",
            ctx -> {
              for (int p = 0; p <= 100; p += 50) {
                ctx.job().step("progress", true, "progress " + p + "/100", p, 100d, null);
                if (p < 100) {
                  ctx.call().sleep(50);
                }
              }
              return ToolResult.text("Tool with progress executed successfully");
            }),
        job(
            "test_sampling",
            "Asks the client's model to answer a prompt.",
            ctx -> {
              JsonObject params =
                  ClientInput.sampling(ctx.arg(PROMPT), 100).getJsonObject("params");
              JsonObject answer =
                  ctx.requestClientAndWait("sampling/createMessage", params, CLIENT_TIMEOUT);
              JsonObject content = answer.getJsonObject("content", new JsonObject());
              return ToolResult.text(
                  "LLM response: " + content.getString("text", content.encode()));
            },
            PROMPT),
        job(
            "test_elicitation",
            "Asks the user for a username and email.",
            ctx -> {
              JsonObject schema =
                  prop(
                      prop(
                          new JsonObject()
                              .put("type", "object")
                              .put("properties", new JsonObject()),
                          "username",
                          string("User's response"),
                          true),
                      "email",
                      string("User's email address"),
                      true);
              return elicit(ctx, ctx.arg(MESSAGE), schema, "User response: ");
            },
            MESSAGE),
        job(
            "test_elicitation_sep1034_defaults",
            "Elicits values whose fields have defaults.",
            ctx -> {
              JsonObject properties =
                  new JsonObject()
                      .put("name", string("User name").put("default", "John Doe"))
                      .put(
                          "age",
                          new JsonObject()
                              .put("type", "integer")
                              .put("description", "User age")
                              .put("default", 30))
                      .put(
                          "score",
                          new JsonObject()
                              .put("type", "number")
                              .put("description", "User score")
                              .put("default", 95.5))
                      .put(
                          "status",
                          string("User status")
                              .put(
                                  "enum",
                                  new JsonArray().add("active").add("inactive").add("pending"))
                              .put("default", "active"))
                      .put(
                          "verified",
                          new JsonObject()
                              .put("type", "boolean")
                              .put("description", "Verification status")
                              .put("default", true));
              return elicit(
                  ctx,
                  "Please review and update the form fields with defaults",
                  new JsonObject()
                      .put("type", "object")
                      .put("properties", properties)
                      .put("required", new JsonArray()),
                  "Elicitation completed: ");
            }),
        job(
            "test_elicitation_sep1330_enums",
            "Elicits with every enum schema variant.",
            ctx -> {
              JsonArray three = new JsonArray().add("option1").add("option2").add("option3");
              JsonObject properties =
                  new JsonObject()
                      .put(
                          "untitledSingle",
                          new JsonObject().put("type", "string").put("enum", three))
                      .put(
                          "titledSingle",
                          new JsonObject()
                              .put("type", "string")
                              .put("oneOf", titled("value", "Option")))
                      .put(
                          "legacyEnum",
                          new JsonObject()
                              .put("type", "string")
                              .put("enum", new JsonArray().add("opt1").add("opt2").add("opt3"))
                              .put(
                                  "enumNames",
                                  new JsonArray()
                                      .add("Option One")
                                      .add("Option Two")
                                      .add("Option Three")))
                      .put(
                          "untitledMulti",
                          new JsonObject()
                              .put("type", "array")
                              .put(
                                  "items",
                                  new JsonObject().put("type", "string").put("enum", three)))
                      .put(
                          "titledMulti",
                          new JsonObject()
                              .put("type", "array")
                              .put(
                                  "items",
                                  new JsonObject().put("anyOf", titled("value", "Choice"))));
              return elicit(
                  ctx,
                  "Please pick from each kind of list",
                  new JsonObject().put("type", "object").put("properties", properties),
                  "Elicitation completed: ");
            }),
        written(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features",
            ctx -> ToolResult.text("ok"),
            new JsonObject()
                .put("$schema", "https://json-schema.org/draft/2020-12/schema")
                .put("type", "object")
                .put(
                    "$defs",
                    new JsonObject()
                        .put(
                            "address",
                            new JsonObject()
                                .put("$anchor", "address")
                                .put("type", "object")
                                .put(
                                    "properties",
                                    new JsonObject()
                                        .put("street", new JsonObject().put("type", "string"))
                                        .put("city", new JsonObject().put("type", "string")))))
                .put(
                    "properties",
                    new JsonObject()
                        .put("name", new JsonObject().put("type", "string"))
                        .put("address", new JsonObject().put("$ref", "#/$defs/address")))
                // 2020-12's composition and conditionals, listed as written (SEP-2106): a name or
                // an address, and an address given needs its city
                .put(
                    "allOf",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put(
                                    "anyOf",
                                    new JsonArray()
                                        .add(required("name"))
                                        .add(required("address")))))
                .put("if", required("address"))
                .put(
                    "then",
                    new JsonObject()
                        .put("properties", new JsonObject().put("address", required("city"))))
                .put("else", required("name"))
                .put("additionalProperties", false)));
  }

  private static JsonObject required(String property) {
    return new JsonObject().put("required", new JsonArray().add(property));
  }

  private static JsonArray titled(String value, String title) {
    String[] ordinals = {"First", "Second", "Third"};
    JsonArray out = new JsonArray();
    for (int i = 0; i < 3; i++) {
      out.add(
          new JsonObject().put("const", value + (i + 1)).put("title", ordinals[i] + " " + title));
    }
    return out;
  }

  private static ToolResult elicit(
      ToolContext ctx, String message, JsonObject schema, String prefix)
      throws InterruptedException {
    JsonObject answer =
        ctx.requestClientAndWait(
            "elicitation/create",
            new JsonObject().put("message", message).put("requestedSchema", schema),
            CLIENT_TIMEOUT);
    return ToolResult.text(
        prefix
            + "action="
            + answer.getString("action")
            + ", content="
            + answer.getJsonObject("content", new JsonObject()).encode());
  }

  private static JsonObject image() {
    return new JsonObject()
        .put("type", "image")
        .put("data", Media.RED_PIXEL_PNG)
        .put("mimeType", "image/png");
  }

  private static JsonObject resource(String uri, String mimeType, String text) {
    return new JsonObject()
        .put("type", "resource")
        .put(
            "resource",
            new JsonObject().put("uri", uri).put("mimeType", mimeType).put("text", text));
  }

  private static FixtureTool simple(String name, String description, FixtureTool.Handler handler) {
    return new FixtureTool(ToolSpec.builder(name).description(description).build(), handler);
  }

  /** The JSON Schema 2020-12 fixture: its input is written whole, $schema and $defs included. */
  private static FixtureTool written(
      String name, String description, FixtureTool.Handler handler, JsonObject input) {
    return new FixtureTool(
        ToolSpec.builder(name).description(description).input(input).build(), handler);
  }

  private static FixtureTool job(
      String name, String description, FixtureTool.Handler handler, Arg<?>... input) {
    ToolSpec.Builder spec = ToolSpec.builder(name).description(description).mode(ExecutionMode.JOB);
    return new FixtureTool((input.length == 0 ? spec : spec.input(input)).build(), handler);
  }
}
