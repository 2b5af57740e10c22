package dev.sonde.schema;

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

/** Table inheritance and partitions (PostgreSQL). */
final class ListTableHierarchyTool implements Tool {
  private static final Arg<String> TABLE =
      Arg.string(
          "table_name", "Table: table, schema.table or database.schema.table; omit for all links");

  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("list_table_hierarchy")
          .title("Table hierarchy")
          .description(
              "PostgreSQL inheritance and partitions: for a table, its parents and its children"
                  + " (with partition bounds); without a table, every parent-child link. An unknown table is"
                  + " an error; engines without inheritance answer with empty lists and say so.")
          .input(TABLE, CONNECTION)
          .output(Schemas.result("parents", "array", "children", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ListTableHierarchyTool(DatabaseRegistry databases) {
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
        .hierarchy(ctx.arg(TABLE))
        .map(ToolResult::structured);
  }
}
