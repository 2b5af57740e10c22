package dev.sonde.conformance;

import static dev.sonde.tools.ClientInput.accepted;
import static dev.sonde.tools.ClientInput.elicitation;
import static dev.sonde.tools.ClientInput.form;
import static dev.sonde.tools.ClientInput.roots;
import static dev.sonde.tools.ClientInput.rootsOf;
import static dev.sonde.tools.ClientInput.sampled;
import static dev.sonde.tools.ClientInput.sampling;

import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The conformance suite's fixtures for the 2026-07-28 revision: tools that ask the client for input
 * by returning input-required results (multi-round-trip requests), one that needs a capability, and
 * one that logs. They ask the way any Sonde tool asks, so on a legacy session the server turns the
 * same results into server-to-client requests.
 */
final class InputFixtures {
  private InputFixtures() {}

  static List<FixtureTool> tools() {
    return List.of(
        tool(
            "test_input_required_result_elicitation",
            "Asks the user's name, then greets them.",
            ctx -> {
              JsonObject name = accepted(ctx.inputResponses(), "user_name");
              return name != null && name.getValue("name") instanceof String n
                  ? ToolResult.text("Hello, " + n + "!")
                  : ask("user_name", askName(), null);
            }),
        tool(
            "test_input_required_result_sampling",
            "Asks the client's model a question.",
            ctx -> {
              String answer = sampled(ctx.inputResponses(), "capital_question");
              return answer != null
                  ? ToolResult.text("The model answered: " + answer)
                  : ask("capital_question", sampling("What is the capital of France?", 100), null);
            }),
        tool(
            "test_input_required_result_list_roots",
            "Asks which folders the client shares.",
            ctx -> {
              JsonArray shared = rootsOf(ctx.inputResponses(), "client_roots");
              return shared != null
                  ? ToolResult.text("The client shares " + shared.size() + " root(s)")
                  : ask("client_roots", roots(), null);
            }),
        tool(
            "test_input_required_result_request_state",
            "Asks for a confirmation and keeps its step in the request state.",
            ctx -> {
              JsonObject confirmed = accepted(ctx.inputResponses(), "confirm");
              return confirmed != null && "confirm".equals(ctx.requestState().getString("step"))
                  ? ToolResult.text("state-ok: confirmed=" + confirmed.getValue("ok"))
                  : ask("confirm", askConfirmation(), new JsonObject().put("step", "confirm"));
            }),
        tool(
            "test_input_required_result_multiple_inputs",
            "Asks the user, the model and the roots at once.",
            ctx -> {
              JsonObject in = ctx.inputResponses();
              if (accepted(in, "user_name") != null
                  && sampled(in, "greeting") != null
                  && rootsOf(in, "client_roots") != null) {
                return ToolResult.text(
                    "All three answered: "
                        + accepted(in, "user_name").getValue("name")
                        + ", "
                        + sampled(in, "greeting"));
              }
              return ToolResult.inputRequired(
                  new JsonObject()
                      .put("user_name", askName())
                      .put("greeting", sampling("Write a one-line greeting.", 50))
                      .put("client_roots", roots()),
                  new JsonObject().put("step", "all"));
            }),
        tool(
            "test_input_required_result_multi_round",
            "Asks a name, then a colour, over two rounds.",
            ctx -> {
              JsonObject state = ctx.requestState();
              JsonObject in = ctx.inputResponses();
              if (state.getInteger("round", 0) == 2 && accepted(in, "step2") != null) {
                return ToolResult.text(
                    state.getString("name") + " likes " + accepted(in, "step2").getValue("color"));
              }
              if (state.getInteger("round", 0) == 1
                  && accepted(in, "step1") != null
                  && accepted(in, "step1").getValue("name") instanceof String name) {
                return ask(
                    "step2",
                    elicitation(
                        "What is your favourite colour, " + name + "?", form("color", "string")),
                    new JsonObject().put("round", 2).put("name", name));
              }
              return ask("step1", askName(), new JsonObject().put("round", 1));
            }),
        tool(
            "test_input_required_result_tampered_state",
            "Asks for a confirmation; its state is sealed, so an altered one is refused.",
            ctx -> {
              JsonObject confirmed = accepted(ctx.inputResponses(), "confirm");
              return confirmed != null && ctx.requestState().getBoolean("sealed", false)
                  ? ToolResult.text("state intact")
                  : ask("confirm", askConfirmation(), new JsonObject().put("sealed", true));
            }),
        tool(
            "test_input_required_result_capabilities",
            "Asks only through what the client declared it can do.",
            ctx -> {
              JsonObject in = ctx.inputResponses();
              if (accepted(in, "ask") != null || sampled(in, "ask") != null) {
                return ToolResult.text("answered");
              }
              if (ctx.clientCan("elicitation")) {
                return ask("ask", askName(), null);
              }
              if (ctx.clientCan("sampling")) {
                return ask("ask", sampling("Pick a name for a test user.", 20), null);
              }
              return ToolResult.error("the client can neither be asked nor sampled");
            }),
        tool(
            "test_streaming_elicitation",
            "Asks the user for a confirmation, inside its answer rather than as a request.",
            ctx ->
                accepted(ctx.inputResponses(), "confirm") != null
                    ? ToolResult.text("confirmed")
                    : ask("confirm", askConfirmation(), null)),
        new FixtureTool(
            ToolSpec.builder("test_missing_capability")
                .description("Needs the client's sampling capability.")
                .requires("sampling")
                .build(),
            ctx -> ToolResult.text("the client can sample")),
        new FixtureTool(
            ToolSpec.builder("test_logging_tool")
                .description("Logs two lines, only to a request that asked for a log level.")
                .mode(ExecutionMode.JOB)
                .build(),
            ctx -> {
              ctx.log("info", "test_logging_tool started");
              ctx.log("info", "test_logging_tool finished");
              return ToolResult.text("logged");
            }));
  }

  /** The suite's prompt that asks for context before it is written. */
  static JsonObject askContext() {
    return ToolResult.inputRequired(
            new JsonObject()
                .put(
                    "user_context",
                    elicitation("What context should the prompt use?", form("context", "string"))),
            null)
        .toJson();
  }

  private static FixtureTool tool(String name, String description, FixtureTool.Handler handler) {
    return new FixtureTool(ToolSpec.builder(name).description(description).build(), handler);
  }

  private static ToolResult ask(String key, JsonObject request, JsonObject state) {
    return ToolResult.inputRequired(new JsonObject().put(key, request), state);
  }

  private static JsonObject askName() {
    return elicitation("What is your name?", form("name", "string"));
  }

  private static JsonObject askConfirmation() {
    return elicitation("Go ahead?", form("ok", "boolean"));
  }
}
