package dev.sonde.schema;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static io.vertx.json.schema.common.dsl.Keywords.minLength;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import java.util.Locale;

/** Table names containing a substring, case-insensitively, on the qualified name. */
final class FilterTableNamesTool implements Tool {
  private static final Arg<String> SUBSTRING =
      Arg.string("substring", "Text to look for in the qualified names", minLength(1)).required();

  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("filter_table_names")
          .title("Filter table names")
          .description(
              "Qualified table and view names that contain the substring, ignoring case"
                  + " (for example 'order' finds main.orders and main.order_items).")
          .input(SUBSTRING, CONNECTION)
          .output(Schemas.result("table_names", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  FilterTableNamesTool(DatabaseRegistry databases) {
    this.databases = databases;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    String wanted = ctx.arg(SUBSTRING).toLowerCase(Locale.ROOT);
    return databases
        .get(ctx.arg(CONNECTION), ctx.account())
        .tables()
        .map(
            tables ->
                AllTableNamesTool.names(tables, n -> n.toLowerCase(Locale.ROOT).contains(wanted)));
  }
}
