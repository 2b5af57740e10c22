package dev.sonde.schema;

import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;

/** Table inheritance and partitions (PostgreSQL). */
final class ListTableHierarchyTool implements Tool {
  private final FamilyServices services;
  private final ToolSpec spec =
      ToolSpec.builder("list_table_hierarchy")
          .title("Table hierarchy")
          .description(
              "PostgreSQL inheritance and partitions: for a table, its parents and its children"
                  + " (with partition bounds); without a table, every parent-child link. An unknown table is"
                  + " an error; engines without inheritance answer with empty lists and say so.")
          .input(
              ConnectionArg.addTo(
                  Schemas.prop(
                      Schemas.object(),
                      "table_name",
                      Schemas.string(
                          "Table: table, schema.table or database.schema.table; omit for all links"),
                      false)))
          .output(Schemas.result("parents", "array", "children", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ListTableHierarchyTool(FamilyServices services) {
    this.services = services;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return ConnectionArg.database(services, ctx)
        .hierarchy(ctx.args().getString("table_name"))
        .map(ToolResult::structured);
  }
}
