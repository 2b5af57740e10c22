package dev.sonde.query;

import dev.sonde.db.QueryRequest;
import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;

/**
 * One read-only statement through the guard, with its result kept inside the connection's budget.
 */
final class ExecuteQueryTool implements Tool {
  private final FamilyServices services;
  private final ToolSpec spec =
      ToolSpec.builder("execute_query")
          .title("Run a read-only query")
          .description(
              "Runs one read-only statement (SELECT, WITH ... SELECT, VALUES, SHOW, DESCRIBE,"
                  + " and the engine's read forms such as DuckDB's FROM, PIVOT, SUMMARIZE) and returns"
                  + " columns, rows, row_count, truncated and elapsed_ms. Results are capped per connection"
                  + " (rows and characters): aggregate or filter rather than paging through raw rows."
                  + " Decimals come back as strings; times as ISO-8601 in the timezone, or epoch numbers.")
          .input(
              Schemas.prop(
                  Schemas.prop(
                      Schemas.prop(
                          Schemas.prop(
                              ConnectionArg.addTo(
                                  Schemas.prop(
                                      Schemas.object(),
                                      "sql",
                                      Schemas.string(
                                              "One read-only SQL statement", Schemas.SQL_LENGTH)
                                          .put("minLength", 1),
                                      true)),
                              "format",
                              Schemas.string("json (rows as arrays) or csv")
                                  .put("enum", new JsonArray().add("json").add("csv")),
                              false),
                          "limit",
                          Schemas.integer(
                              "Rows wanted; the connection's maxRows caps it", 1, 1_000_000),
                          false),
                      "timeformat",
                      Schemas.string("How times are rendered")
                          .put("enum", new JsonArray().add("iso").add("ms").add("us").add("ns")),
                      false),
                  "timezone",
                  Schemas.string(
                      "IANA zone for iso times, e.g. Asia/Shanghai; default timeseries.timezone (UTC)"),
                  false))
          .output(
              Schemas.prop(
                  Schemas.result("columns", "array", "row_count", "integer"),
                  "truncated",
                  new JsonObject().put("type", "boolean"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ExecuteQueryTool(FamilyServices services) {
    this.services = services;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    JsonObject args = ctx.args();
    ZoneId zone = TimezoneArg.zone(services, ctx);
    QueryRequest request =
        new QueryRequest(
            args.getString("sql"),
            args.getInteger("limit", Integer.MAX_VALUE),
            "csv".equals(args.getString("format")),
            args.getString("timeformat", "iso"),
            zone);
    return ConnectionArg.database(services, ctx)
        .query(request, ctx.call())
        .map(ToolResult::structured);
  }
}
