package dev.sonde.schema;

import static dev.sonde.tools.ConnectionArg.CONNECTION;

import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;

/** The indexes of a table. */
final class ListIndexesTool implements Tool {
  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("list_indexes")
          .title("List indexes")
          .description(
              "The indexes of a table: name, unique, primary, and columns with position and"
                  + " ASC/DESC.")
          .input(SchemaArgs.TABLE, CONNECTION)
          .output(Schemas.result("indexes", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  ListIndexesTool(DatabaseRegistry databases) {
    this.databases = databases;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return SchemaArgs.describedPart(databases, ctx, "indexes");
  }
}
