package dev.sonde.schema;

import static dev.sonde.schema.SchemaArgs.TABLE;
import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static dev.sonde.tools.TimezoneArg.TIMEZONE;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ClientInput;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
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

  private static final String WHICH_TABLE = "table";

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
                  + " several schemas hold must be qualified (a client that can elicit is asked to pick one);"
                  + " an unknown one gets close matches. With"
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
    Database db = databases.get(ctx.arg(CONNECTION), ctx.account());
    String chosen = chosenTable(ctx);
    Future<JsonObject> described = db.describe(chosen != null ? chosen : ctx.arg(TABLE));
    Future<ToolResult> answered =
        ctx.arg(PROFILE) ? profiled(ctx, db, described) : described.map(ToolResult::structured);
    return answered.recover(failure -> askWhichTable(ctx, failure));
  }

  /**
   * An unqualified name several schemas hold: a client that can ask its user gets the choices as a
   * form (the reference toolset's "ask which one"); any other, or one already asked, the error
   * listing them.
   */
  private static Future<ToolResult> askWhichTable(ToolContext ctx, Throwable failure) {
    if (failure instanceof CallerException mistake
        && !mistake.choices().isEmpty()
        && ctx.clientCan("elicitation")
        && !ctx.inputResponses().containsKey(WHICH_TABLE)) {
      return Future.succeededFuture(
          ToolResult.inputRequired(
              new JsonObject()
                  .put(
                      WHICH_TABLE,
                      ClientInput.elicitation(
                          "Several schemas hold a table named "
                              + Quote.of(ctx.arg(TABLE))
                              + ". Which one should be described?",
                          ClientInput.choice(WHICH_TABLE, "Table", mistake.choices()))),
              new JsonObject().put("choices", new JsonArray(mistake.choices()))));
    }
    return Future.failedFuture(failure);
  }

  /** The table the user picked last round, if it is one of the choices they were offered. */
  private static String chosenTable(ToolContext ctx) {
    JsonObject picked = ClientInput.accepted(ctx.inputResponses(), WHICH_TABLE);
    JsonArray offered = ctx.requestState().getJsonArray("choices", new JsonArray());
    return picked != null
            && picked.getValue(WHICH_TABLE) instanceof String table
            && offered.contains(table)
        ? table
        : null;
  }

  private Future<ToolResult> profiled(ToolContext ctx, Database db, Future<JsonObject> described) {
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
