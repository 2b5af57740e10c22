package dev.sonde.schema;

import static dev.sonde.tools.ConnectionArg.CONNECTION;

import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.db.TableRef;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;

/** Every table and view, fully qualified, with its kind. */
final class ListTablesTool implements Tool {
  private final DatabaseRegistry databases;
  private final FamilyAsks asks;
  private final ToolSpec spec =
      ToolSpec.builder("list_tables")
          .title("List tables")
          .description(
              "Every table and view the connection's user can see, fully qualified"
                  + " (database.schema.table), with its kind (TABLE, VIEW; TAG for time-series tag tables,"
                  + " ROLLUP for the rollup tables Sonde keeps beside them), and the count. Start here on"
                  + " an unknown database.")
          .input(CONNECTION)
          .output(Schemas.result("tables", "array", "count", "integer"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ListTablesTool(DatabaseRegistry databases, FamilyAsks asks) {
    this.databases = databases;
    this.asks = asks;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  /** Tag tables as TAG, Sonde's rollup tables as ROLLUP, as the time-series family knows them. */
  private static List<TableRef> withTimeSeriesKinds(List<TableRef> tables, JsonObject kinds) {
    return tables.stream()
        .map(t -> kinds.containsKey(t.qualified()) ? t.withKind(kinds.getString(t.qualified())) : t)
        .toList();
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    Database db = databases.get(ctx.arg(CONNECTION), ctx.account());
    return db.tables()
        .compose(
            tables ->
                asks.tableKinds(db.name(), ctx.call())
                    // the tables are listed even when tag detection cannot read the catalog
                    .otherwise(new JsonObject())
                    .map(kinds -> withTimeSeriesKinds(tables, kinds)))
        .map(
            tables -> {
              JsonArray list = new JsonArray();
              tables.stream()
                  .sorted(Comparator.comparing(TableRef::qualified))
                  .forEach(
                      t ->
                          list.add(
                              new JsonObject().put("name", t.qualified()).put("kind", t.kind())));
              return ToolResult.structured(
                  new JsonObject().put("tables", list).put("count", list.size()));
            });
  }
}
