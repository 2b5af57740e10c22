package dev.sonde.schema;

import static dev.sonde.schema.SchemaArgs.TABLE;
import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static dev.sonde.tools.TimezoneArg.TIMEZONE;

import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Arg;
import dev.sonde.tools.FamilyAsks;
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
  private static final Arg<Boolean> PROFILE =
      Arg.flag(
              "profile",
              "On a tag table: add column roles, rollups, per-tag count/avg/min/max and the time"
                  + " range")
          .orElse(false);

  private final DatabaseRegistry databases;
  private final FamilyAsks asks;
  private final String configuredZone;
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
          .input(TABLE, PROFILE, CONNECTION, TIMEZONE)
          .output(
              Schemas.prop(
                  Schemas.prop(Schemas.result(), "table", Schemas.string("qualified name"), true),
                  "columns",
                  new JsonObject().put("type", "array"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  DescribeTableTool(DatabaseRegistry databases, FamilyAsks asks, String configuredZone) {
    this.databases = databases;
    this.asks = asks;
    this.configuredZone = configuredZone;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    Database db = databases.get(ctx.arg(CONNECTION));
    Future<JsonObject> described = db.describe(ctx.arg(TABLE));
    if (!ctx.arg(PROFILE)) {
      return described.map(ToolResult::structured);
    }
    ZoneId zone = TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone);
    return described.compose(
        d ->
            asks.tagProfile(db.name(), d.getString("table"), zone, ctx.call())
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
