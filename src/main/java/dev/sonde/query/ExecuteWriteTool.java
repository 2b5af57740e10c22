package dev.sonde.query;

import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.FamilyServices;
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
  private final FamilyServices services;
  private final ToolSpec spec =
      ToolSpec.builder("execute_write")
          .title("Change data")
          .description(
              "Runs one INSERT, UPDATE, DELETE or MERGE in its own transaction (committed on"
                  + " success, rolled back on failure) on a connection configured with write: true, and"
                  + " returns affected_rows. Schema changes, session commands and reads are refused.")
          .input(
              Schemas.prop(
                  Schemas.prop(
                      Schemas.object(),
                      "sql",
                      Schemas.string("One INSERT, UPDATE, DELETE or MERGE", Schemas.SQL_LENGTH)
                          .put("minLength", 1),
                      true),
                  "connection",
                  Schemas.string("Named connection that allows writes; omit for the default"),
                  false))
          .output(Schemas.result("affected_rows", "integer"))
          .annotations(new ToolAnnotations(false, true, false, false))
          .build();

  ExecuteWriteTool(FamilyServices services) {
    this.services = services;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return ConnectionArg.database(services, ctx)
        .write(ctx.args().getString("sql"), ctx.call())
        .map(ToolResult::structured);
  }
}
