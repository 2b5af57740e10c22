package dev.sonde.schema;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static io.vertx.json.schema.common.dsl.Keywords.maxItems;

import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.db.TableRef;
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
import java.util.Comparator;
import java.util.List;

/** Row counts of named tables, or of the first tables by name; a failing table says why. */
final class TableRowCountsTool implements Tool {
  static final int MAX_TABLES = 50;
  private static final Arg<List<String>> TABLES =
      Arg.strings(
          "table_names",
          "Tables to count; omit for the first " + MAX_TABLES + " by name",
          maxItems(MAX_TABLES));

  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("table_row_counts")
          .title("Table row counts")
          .description(
              "Row counts. With table_names, those tables (at most "
                  + MAX_TABLES
                  + "); an"
                  + " unknown or failing one gets row_count null and an error. Without, the first "
                  + MAX_TABLES
                  + " tables by name, with truncated and total_tables.")
          .input(TABLES, CONNECTION)
          .output(Schemas.result("counts", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  TableRowCountsTool(DatabaseRegistry databases) {
    this.databases = databases;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    Database database = databases.get(ctx.arg(CONNECTION), ctx.account());
    List<String> named = ctx.arg(TABLES);
    if (named == null) {
      return database
          .tables()
          .compose(
              tables -> {
                List<TableRef> first =
                    tables.stream()
                        .sorted(Comparator.comparing(TableRef::qualified))
                        .limit(MAX_TABLES)
                        .toList();
                return count(
                        database,
                        first.stream()
                            .map(t -> new Database.Resolved(t.qualified(), t, null))
                            .toList())
                    .map(
                        counts ->
                            result(counts)
                                .put("truncated", tables.size() > MAX_TABLES)
                                .put("total_tables", tables.size()));
              })
          .map(ToolResult::structured);
    }
    return database
        .resolveAll(named)
        .compose(resolved -> count(database, resolved))
        .map(counts -> ToolResult.structured(result(counts)));
  }

  private static JsonObject result(JsonArray counts) {
    return new JsonObject().put("counts", counts);
  }

  private static Future<JsonArray> count(Database database, List<Database.Resolved> tables) {
    List<Future<JsonObject>> each =
        tables.stream()
            .map(
                resolved ->
                    (resolved.table() == null
                            ? Future.<Long>failedFuture(resolved.error())
                            : database.rowCount(resolved.table()))
                        .transform(
                            ar ->
                                Future.succeededFuture(
                                    ar.succeeded()
                                        ? new JsonObject()
                                            .put("table", resolved.name())
                                            .put("row_count", ar.result())
                                        : new JsonObject()
                                            .put("table", resolved.name())
                                            .putNull("row_count")
                                            .put("error", ar.cause().getMessage()))))
            .toList();
    return Future.join(each)
        .map(
            done ->
                new JsonArray(each.stream().map(Future::result).map(Object.class::cast).toList()));
  }
}
