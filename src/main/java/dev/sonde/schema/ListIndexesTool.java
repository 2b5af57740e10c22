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

/** The indexes of a table. */
final class ListIndexesTool implements Tool {
  private final FamilyServices services;
  private final ToolSpec spec =
      ToolSpec.builder("list_indexes")
          .title("List indexes")
          .description(
              "The indexes of a table: name, unique, primary, and columns with position and"
                  + " ASC/DESC.")
          .input(ConnectionArg.addTo(SchemaArgs.withTable(Schemas.object())))
          .output(Schemas.result("indexes", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ListIndexesTool(FamilyServices services) {
    this.services = services;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return SchemaArgs.describedPart(services, ctx, "indexes");
  }
}
