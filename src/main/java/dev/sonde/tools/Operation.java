package dev.sonde.tools;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * An unlisted operation that another family ({@link FamilyAsks}) or the dashboard viewer asks for
 * over the event bus: run like a tool call (deadline, pool, stop), never listed to or callable by
 * MCP clients, and answered with its JSON alone.
 */
public final class Operation implements Tool {
  /** The operation's answer to one ask. */
  public interface Answer {
    Future<JsonObject> of(ToolContext ctx) throws Exception;
  }

  private final ToolSpec spec;
  private final Answer answer;

  private Operation(ToolSpec spec, Answer answer) {
    this.spec = spec;
    this.answer = answer;
  }

  /** {@code name} answered by {@code answer}, run where {@code mode} says. */
  public static Operation of(String name, ExecutionMode mode, Answer answer) {
    return new Operation(
        ToolSpec.builder(name)
            .description("An operation other parts of Sonde ask for over the event bus")
            .input(Schemas.result())
            .annotations(ToolAnnotations.READ_ONLY)
            .mode(mode)
            .unlisted()
            .build(),
        answer);
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) throws Exception {
    return answer.of(ctx).map(ToolResult::data);
  }
}
