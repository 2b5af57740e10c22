package dev.sonde.tools.schema;

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

/** A table's columns, primary key, indexes, foreign keys, kind and comment. */
final class DescribeTableTool implements Tool {
  private final FamilyServices services;
  private final ToolSpec spec =
      ToolSpec.builder("describe_table")
          .title("Describe table")
          .description(
              "Columns in definition order (name, type, nullable, default, primary_key),"
                  + " the primary key in key order, indexes (name, unique, primary, columns with"
                  + " position and ASC/DESC), foreign keys, kind and comment. An unqualified name that"
                  + " several schemas hold must be qualified; an unknown one gets close matches.")
          .input(ConnectionArg.addTo(SchemaArgs.withTable(Schemas.object())))
          .output(
              Schemas.prop(
                  Schemas.prop(Schemas.result(), "table", Schemas.string("qualified name"), true),
                  "columns",
                  new JsonObject().put("type", "array"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  DescribeTableTool(FamilyServices services) {
    this.services = services;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return ConnectionArg.database(services, ctx)
        .describe(ctx.args().getString("table_name"))
        .map(ToolResult::structured);
  }
}
