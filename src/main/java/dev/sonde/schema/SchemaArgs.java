package dev.sonde.schema;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static io.vertx.json.schema.common.dsl.Keywords.minLength;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** The table argument the schema tools share, and the parts of describe_table. */
final class SchemaArgs {
  static final Arg<String> TABLE =
      Arg.string(
              "table_name",
              "Table or view: table, schema.table or database.schema.table",
              minLength(1))
          .required();

  private SchemaArgs() {}

  /** One part of describe_table's answer (columns, indexes), with the table's qualified name. */
  static Future<ToolResult> describedPart(
      DatabaseRegistry databases, ToolContext ctx, String part) {
    return databases
        .get(ctx.arg(CONNECTION), ctx.account())
        .describe(ctx.arg(TABLE))
        .map(
            d ->
                ToolResult.structured(
                    new JsonObject()
                        .put("table", d.getString("table"))
                        .put(part, d.getJsonArray(part))));
  }
}
