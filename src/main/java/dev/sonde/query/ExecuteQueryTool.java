package dev.sonde.query;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static io.vertx.json.schema.common.dsl.Keywords.maxLength;
import static io.vertx.json.schema.common.dsl.Keywords.minLength;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.db.QueryRequest;
import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * One read-only statement through the guard, with its result kept inside the connection's budget.
 */
final class ExecuteQueryTool implements Tool {
  /** The statement of the query tools. */
  static final Arg<String> SQL =
      Arg.string("sql", "One read-only SQL statement", minLength(1), maxLength(Schemas.SQL_LENGTH))
          .required();

  private static final Arg<String> FORMAT =
      Arg.oneOf("format", "json (rows as arrays) or csv", "json", "csv").orElse("json");
  private static final Arg<Integer> LIMIT =
      Arg.integer("limit", "Rows wanted; the connection's maxRows caps it", 1, 1_000_000);
  private static final Arg<String> TIMEFORMAT =
      Arg.oneOf("timeformat", "How times are rendered", "iso", "ms", "us", "ns").orElse("iso");
  private static final Arg<String> TIMEZONE =
      TimezoneArg.TIMEZONE.describedAs(
          "IANA zone for iso times, e.g. Asia/Shanghai; default timeseries.timezone (UTC)");

  private final DatabaseRegistry databases;
  private final String configuredZone;
  private final ToolSpec spec =
      ToolSpec.builder("execute_query")
          .title("Run a read-only query")
          .description(
              "Runs one read-only statement (SELECT, WITH ... SELECT, VALUES, SHOW, DESCRIBE,"
                  + " and the engine's read forms such as DuckDB's FROM, PIVOT, SUMMARIZE) and returns"
                  + " columns, rows, row_count, truncated and elapsed_ms. Results are capped per connection"
                  + " (rows and characters): aggregate or filter rather than paging through raw rows."
                  + " Decimals come back as strings; times as ISO-8601 in the timezone, or epoch numbers.")
          .input(SQL, CONNECTION, FORMAT, LIMIT, TIMEFORMAT, TIMEZONE)
          .output(
              Schemas.prop(
                  Schemas.result("columns", "array", "row_count", "integer"),
                  "truncated",
                  new JsonObject().put("type", "boolean"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ExecuteQueryTool(DatabaseRegistry databases, String configuredZone) {
    this.databases = databases;
    this.configuredZone = configuredZone;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    Integer limit = ctx.arg(LIMIT);
    QueryRequest request =
        new QueryRequest(
            ctx.arg(SQL),
            // without a limit the connection's maxRows is the only cap
            limit == null ? Integer.MAX_VALUE : limit,
            "csv".equals(ctx.arg(FORMAT)),
            ctx.arg(TIMEFORMAT),
            TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone));
    return databases
        .get(ctx.arg(CONNECTION), ctx.account())
        .query(request, ctx.call())
        .map(ToolResult::structured);
  }
}
