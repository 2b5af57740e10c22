package dev.sonde.query;

import static dev.sonde.tools.ConnectionArg.CONNECTION;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;

/**
 * One INSERT, UPDATE, DELETE or MERGE on a connection that allows writes; listed only when one
 * does.
 */
final class ExecuteWriteTool implements Tool {
  private static final Arg<String> SQL =
      ExecuteQueryTool.SQL.describedAs("One INSERT, UPDATE, DELETE or MERGE");
  private static final Arg<String> WRITABLE_CONNECTION =
      CONNECTION.describedAs("Named connection that allows writes; omit for the default");

  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("execute_write")
          .title("Change data")
          .description(
              "Runs one INSERT, UPDATE, DELETE or MERGE in its own transaction (committed on"
                  + " success, rolled back on failure) on a connection configured with write: true, and"
                  + " returns affected_rows. Schema changes, session commands and reads are refused.")
          .input(SQL, WRITABLE_CONNECTION)
          .output(Schemas.result("affected_rows", "integer"))
          .annotations(new ToolAnnotations(false, true, false, false))
          .build();

  ExecuteWriteTool(DatabaseRegistry databases) {
    this.databases = databases;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return databases
        .get(ctx.arg(WRITABLE_CONNECTION))
        .write(ctx.arg(SQL), ctx.call())
        .map(ToolResult::structured);
  }
}
