package dev.sonde.query;

import static dev.sonde.query.ExecuteQueryTool.SQL;
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
import io.vertx.core.json.JsonObject;

/** The engine's plan for a read, optionally with real timings. */
final class ExplainQueryTool implements Tool {
  private static final Arg<Boolean> ANALYZE =
      Arg.flag("analyze", "Run it and report real timings").orElse(false);

  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("explain_query")
          .title("Explain a query")
          .description(
              "The engine's plan for one read-only statement, as text. With analyze: true the"
                  + " statement runs (inside a read-only transaction that is rolled back) and the plan"
                  + " shows real timings and row counts. The same guard as execute_query applies.")
          .input(SQL, ANALYZE, CONNECTION)
          .output(
              Schemas.prop(
                  Schemas.prop(Schemas.result(), "plan", Schemas.string("the plan as text"), true),
                  "truncated",
                  new JsonObject().put("type", "boolean"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ExplainQueryTool(DatabaseRegistry databases) {
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
        .explain(ctx.arg(SQL), ctx.arg(ANALYZE), ctx.call())
        .map(ToolResult::structured);
  }
}
