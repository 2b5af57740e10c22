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

/** Only the columns of a table, for writing SQL against it. */
final class SchemaDefinitionsTool implements Tool {
  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("schema_definitions")
          .title("Column definitions")
          .description(
              "The columns of a table in definition order: name, type, nullable, default,"
                  + " primary_key. The column part of describe_table.")
          .input(SchemaArgs.TABLE, CONNECTION)
          .output(Schemas.result("columns", "array"))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  SchemaDefinitionsTool(DatabaseRegistry databases) {
    this.databases = databases;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return SchemaArgs.describedPart(databases, ctx, "columns");
  }
}
