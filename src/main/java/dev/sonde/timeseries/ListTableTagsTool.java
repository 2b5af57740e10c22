package dev.sonde.timeseries;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static io.vertx.json.schema.common.dsl.Keywords.minLength;

import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The tag names of a tag table, from the list Sonde keeps current. */
final class ListTableTagsTool implements Tool {
  private static final Arg<String> TABLE =
      Arg.string("table_name", "The tag table, e.g. EXAMPLE", minLength(1)).required();

  private final DatabaseRegistry databases;
  private final TagTables tagTables;
  private final ToolSpec spec =
      ToolSpec.builder("list_table_tags")
          .title("List table tags")
          .description(
              "The tag names of a time-series tag table (kind TAG in list_tables), sorted. Sonde"
                  + " keeps the list current from newly arrived rows, so this is cheap to call.")
          .input(TABLE, CONNECTION)
          .output(Schemas.result("table", "string", "tags", "array", "count", "integer"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ListTableTagsTool(DatabaseRegistry databases, TagTables tagTables) {
    this.databases = databases;
    this.tagTables = tagTables;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    Database db = databases.get(ctx.arg(CONNECTION), ctx.account());
    return tagTables
        .find(db, ctx.arg(TABLE))
        .compose(
            table ->
                tagTables
                    .tags(db, table)
                    .map(
                        tags ->
                            ToolResult.structured(
                                new JsonObject()
                                    .put("table", table.table().qualified())
                                    .put("tag_column", table.tagColumn())
                                    .put("tags", new JsonArray(tags))
                                    .put("count", tags.size()))));
  }
}
