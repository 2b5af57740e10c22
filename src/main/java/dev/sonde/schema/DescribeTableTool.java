package dev.sonde.schema;

import dev.sonde.db.Database;
import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;

/** A table's columns, primary key, indexes, foreign keys, kind and comment. */
final class DescribeTableTool implements Tool {
  private final FamilyServices services;
  private final ToolSpec spec =
      ToolSpec.builder("describe_table")
          .title("Describe table")
          .description(
              "Columns in definition order (name, type, nullable, default, primary_key),"
                  + " the primary key in key order, indexes (name, unique, primary, columns with"
                  + " position and ASC/DESC), foreign keys, kind and comment. An unqualified name that"
                  + " several schemas hold must be qualified; an unknown one gets close matches. With"
                  + " profile: true on a tag table: column roles (PRIMARY KEY tag, BASETIME,"
                  + " SUMMARIZED value), rollups, per-tag count/avg/min/max and the time range.")
          .input(
              TimezoneArg.addTo(
                  ConnectionArg.addTo(
                      Schemas.prop(
                          SchemaArgs.withTable(Schemas.object()),
                          "profile",
                          new JsonObject()
                              .put("type", "boolean")
                              .put(
                                  "description",
                                  "On a tag table: add column roles, rollups, per-tag"
                                      + " count/avg/min/max and the time range"),
                          false))))
          .output(
              Schemas.prop(
                  Schemas.prop(Schemas.result(), "table", Schemas.string("qualified name"), true),
                  "columns",
                  new JsonObject().put("type", "array"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  DescribeTableTool(FamilyServices services) {
    this.services = services;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    Database db = ConnectionArg.database(services, ctx);
    String name = ctx.args().getString("table_name");
    Future<JsonObject> described = db.describe(name);
    if (!ctx.args().getBoolean("profile", false)) {
      return described.map(ToolResult::structured);
    }
    ZoneId zone = TimezoneArg.zone(services, ctx);
    return described.compose(
        d ->
            services
                .asks()
                .tagProfile(db.name(), d.getString("table"), zone, ctx.call())
                .map(
                    answer ->
                        answer.containsKey("profile")
                            ? ToolResult.structured(
                                d.put("kind", "TAG")
                                    .put("profile", answer.getJsonObject("profile")))
                            : ToolResult.structured(
                                d.put(
                                    "profile_note",
                                    "profile describes tag tables (tag name, time, value);"
                                        + " this is a plain table"))));
  }
}
