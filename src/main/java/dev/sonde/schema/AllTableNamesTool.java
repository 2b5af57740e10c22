package dev.sonde.schema;

import static dev.sonde.tools.ConnectionArg.CONNECTION;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.db.TableRef;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Predicate;

/** The qualified names of every table and view, sorted. */
final class AllTableNamesTool implements Tool {
  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("all_table_names")
          .title("All table names")
          .description(
              "The fully qualified names of every table and view, sorted; lighter than"
                  + " list_tables when only the names matter.")
          .input(CONNECTION)
          .output(Schemas.result("table_names", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  AllTableNamesTool(DatabaseRegistry databases) {
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
        .tables()
        .map(tables -> names(tables, n -> true));
  }

  /** The sorted qualified names that {@code keep} accepts, and their count. */
  static ToolResult names(List<TableRef> tables, Predicate<String> keep) {
    JsonArray names =
        new JsonArray(
            tables.stream()
                .map(TableRef::qualified)
                .filter(keep)
                .sorted()
                .map(Object.class::cast)
                .toList());
    return ToolResult.structured(
        new JsonObject().put("table_names", names).put("count", names.size()));
  }
}
