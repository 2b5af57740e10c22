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
import io.vertx.core.json.JsonObject;

/** The engine's plan for a read, optionally with real timings. */
final class ExplainQueryTool implements Tool {
  private final FamilyServices services;
  private final ToolSpec spec =
      ToolSpec.builder("explain_query")
          .title("Explain a query")
          .description(
              "The engine's plan for one read-only statement, as text. With analyze: true the"
                  + " statement runs (inside a read-only transaction that is rolled back) and the plan"
                  + " shows real timings and row counts. The same guard as execute_query applies.")
          .input(
              ConnectionArg.addTo(
                  Schemas.prop(
                      Schemas.prop(
                          Schemas.object(),
                          "sql",
                          Schemas.string("One read-only SQL statement", Schemas.SQL_LENGTH)
                              .put("minLength", 1),
                          true),
                      "analyze",
                      new JsonObject()
                          .put("type", "boolean")
                          .put("description", "Run it and report real timings"),
                      false)))
          .output(
              Schemas.prop(
                  Schemas.prop(Schemas.result(), "plan", Schemas.string("the plan as text"), true),
                  "truncated",
                  new JsonObject().put("type", "boolean"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ExplainQueryTool(FamilyServices services) {
    this.services = services;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    JsonObject args = ctx.args();
    return ConnectionArg.database(services, ctx)
        .explain(args.getString("sql"), args.getBoolean("analyze", false), ctx.call())
        .map(ToolResult::structured);
  }
}
