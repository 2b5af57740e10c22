package dev.sonde.conformance;

import static dev.sonde.tools.ClientInput.accepted;
import static dev.sonde.tools.ClientInput.elicitation;
import static dev.sonde.tools.ClientInput.form;

import dev.sonde.core.CancelledException;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.TaskSupport;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The conformance suite's fixtures for the {@code io.modelcontextprotocol/tasks} extension: a tool
 * that never runs as a task, slow ones that may, one that must, ones that fail either way, and ones
 * that wait for the client's input while they run as tasks.
 */
final class TaskFixtures {
  private static final Arg<String> NAME = Arg.string("name", "Who to greet").required();
  private static final Arg<Integer> SECONDS =
      Arg.integer("seconds", "How long to compute", 0, 600).required();
  private static final Arg<String> LABEL = Arg.string("label", "A label for the run");
  private static final Arg<String> FILENAME =
      Arg.string("filename", "The file to (pretend to) delete").required();

  private TaskFixtures() {}

  static List<FixtureTool> tools() {
    return List.of(
        new FixtureTool(
            ToolSpec.builder("greet")
                .description("Greets at once; never a task.")
                .input(NAME)
                .build(),
            ctx -> ToolResult.text("Hello, " + ctx.arg(NAME) + "!")),
        new FixtureTool(
            job("slow_compute", "Computes for the given seconds; a task when the client can poll.")
                .input(SECONDS, LABEL)
                .build(),
            ctx -> {
              if (!ctx.call().sleep(ctx.arg(SECONDS) * 1000L)) {
                throw new CancelledException(ctx.cancelReason());
              }
              return ToolResult.text(
                  "computed " + ctx.arg(LABEL) + " in " + ctx.arg(SECONDS) + " s");
            }),
        new FixtureTool(
            job("failing_job", "Runs only as a task, and ends with a tool error.")
                .tasks(TaskSupport.REQUIRED)
                .build(),
            ctx -> {
              ctx.call().sleep(1000);
              return ToolResult.error("failing_job failed, as it always does");
            }),
        new FixtureTool(
            job("protocol_error_job", "Fails with an internal error, so its task fails.").build(),
            ctx -> {
              throw new IllegalStateException("protocol_error_job breaks on purpose");
            }),
        new FixtureTool(
            job("confirm_delete", "Asks the user to confirm before it (pretends to) delete a file.")
                .input(FILENAME)
                .build(),
            ctx -> {
              JsonObject confirmed = accepted(ctx.inputResponses(), "confirm");
              if (confirmed == null) {
                return ToolResult.inputRequired(
                    new JsonObject()
                        .put(
                            "confirm",
                            elicitation(
                                "Delete " + ctx.arg(FILENAME) + "?", form("confirm", "boolean"))),
                    new JsonObject().put("asked", ctx.arg(FILENAME)));
              }
              return ToolResult.text(
                  Boolean.TRUE.equals(confirmed.getValue("confirm"))
                      ? "deleted " + ctx.arg(FILENAME) + " (not really)"
                      : "kept " + ctx.arg(FILENAME));
            }),
        new FixtureTool(
            job("multi_input", "Asks two questions at once while it runs as a task.").build(),
            ctx -> {
              JsonObject in = ctx.inputResponses();
              if (accepted(in, "first") != null && accepted(in, "second") != null) {
                return ToolResult.text("both answered");
              }
              return ToolResult.inputRequired(
                  new JsonObject()
                      .put("first", elicitation("First answer?", form("name", "string")))
                      .put("second", elicitation("Second answer?", form("name", "string"))),
                  null);
            }),
        new FixtureTool(
            job("test_tool_with_task", "Asks the user's name first, then greets them as a task.")
                .tasks(TaskSupport.REQUIRED)
                .inputBeforeTask()
                .build(),
            ctx -> {
              JsonObject name = accepted(ctx.inputResponses(), "user_name");
              return name == null
                  ? ToolResult.inputRequired(
                      new JsonObject()
                          .put(
                              "user_name",
                              elicitation("What is your name?", form("name", "string"))),
                      null)
                  : ToolResult.text("Hello, " + name.getValue("name") + ", from a task");
            }));
  }

  private static ToolSpec.Builder job(String name, String description) {
    return ToolSpec.builder(name)
        .description(description)
        .mode(ExecutionMode.JOB)
        .tasks(TaskSupport.OPTIONAL);
  }
}
