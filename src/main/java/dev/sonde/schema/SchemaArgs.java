package dev.sonde.schema;

import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** The table argument the schema tools share, and the parts of describe_table. */
final class SchemaArgs {
  private SchemaArgs() {}

  static JsonObject withTable(JsonObject schema) {
    return Schemas.prop(
        schema,
        "table_name",
        Schemas.string("Table or view: table, schema.table or database.schema.table")
            .put("minLength", 1),
        true);
  }

  /** One part of describe_table's answer (columns, indexes), with the table's qualified name. */
  static Future<ToolResult> describedPart(FamilyServices services, ToolContext ctx, String part) {
    return ConnectionArg.database(services, ctx)
        .describe(ctx.args().getString("table_name"))
        .map(
            d ->
                ToolResult.structured(
                    new JsonObject()
                        .put("table", d.getString("table"))
                        .put(part, d.getJsonArray(part))));
  }
}
