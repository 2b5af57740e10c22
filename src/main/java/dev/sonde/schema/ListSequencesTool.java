package dev.sonde.schema;

import static dev.sonde.tools.ConnectionArg.CONNECTION;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** The sequences of a connection. */
final class ListSequencesTool implements Tool {
  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("list_sequences")
          .title("List sequences")
          .description(
              "Sequences with their current value, increment, minimum, maximum, whether they"
                  + " cycle, and the column that owns them (PostgreSQL serial and identity columns).")
          .input(CONNECTION)
          .output(Schemas.result("sequences", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ListSequencesTool(DatabaseRegistry databases) {
    this.databases = databases;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return databases
        .get(ctx.arg(CONNECTION), ctx.account())
        .sequences()
        .map(
            list ->
                ToolResult.structured(
                    new JsonObject().put("sequences", list).put("count", list.size())));
  }
}
