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
import java.util.Locale;

/** Table names containing a substring, case-insensitively, on the qualified name. */
final class FilterTableNamesTool implements Tool {
  private final FamilyServices services;
  private final ToolSpec spec =
      ToolSpec.builder("filter_table_names")
          .title("Filter table names")
          .description(
              "Qualified table and view names that contain the substring, ignoring case"
                  + " (for example 'order' finds main.orders and main.order_items).")
          .input(
              ConnectionArg.addTo(
                  Schemas.prop(
                      Schemas.object(),
                      "substring",
                      Schemas.string("Text to look for in the qualified names").put("minLength", 1),
                      true)))
          .output(Schemas.result("table_names", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  FilterTableNamesTool(FamilyServices services) {
    this.services = services;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    String wanted = ctx.args().getString("substring").toLowerCase(Locale.ROOT);
    return ConnectionArg.database(services, ctx)
        .tables()
        .map(
            tables ->
                AllTableNamesTool.names(tables, n -> n.toLowerCase(Locale.ROOT).contains(wanted)));
  }
}
