package dev.sonde.timeseries;

import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.Operation;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.ToolContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/** What other families ask of the time-series family: see {@link FamilyAsks}. */
final class TimeSeriesOperations {
  private final DatabaseRegistry databases;
  private final String configuredZone;
  private final TagTables tagTables;
  private final Charts charts;

  private TimeSeriesOperations(
      DatabaseRegistry databases, String configuredZone, TagTables tagTables, Charts charts) {
    this.databases = databases;
    this.configuredZone = configuredZone;
    this.tagTables = tagTables;
    this.charts = charts;
  }

  static List<Operation> all(
      DatabaseRegistry databases, String configuredZone, TagTables tagTables, Charts charts) {
    TimeSeriesOperations ops =
        new TimeSeriesOperations(databases, configuredZone, tagTables, charts);
    return List.of(
        Operation.of(FamilyAsks.CHART_DATA, ExecutionMode.EVENT_LOOP, ops::chartData),
        Operation.of(FamilyAsks.TAG_STATS, ExecutionMode.EVENT_LOOP, ops::tagStats),
        Operation.of(FamilyAsks.TABLE_KINDS, ExecutionMode.EVENT_LOOP, ops::tableKinds),
        Operation.of(FamilyAsks.TAG_PROFILE, ExecutionMode.EVENT_LOOP, ops::tagProfile));
  }

  private Future<JsonObject> chartData(ToolContext ctx) {
    JsonObject args = ctx.args();
    return charts
        .compile(
            args.getString("connection"),
            args.getJsonObject("spec", new JsonObject()),
            zone(ctx),
            args.getInteger("max_points"),
            ctx.call())
        .map(
            compiled ->
                new JsonObject()
                    .put("document", compiled.document())
                    .put("series", compiled.series())
                    .put("summary", compiled.summary()));
  }

  private Future<JsonObject> tagStats(ToolContext ctx) {
    Database db = database(ctx);
    JsonObject args = ctx.args();
    return tagTables
        .find(db, args.getString("table"))
        .compose(
            table -> {
              JsonObject answer =
                  new JsonObject()
                      .put("table", table.table().name())
                      .put("qualified", table.table().qualified());
              Future<JsonObject> counted =
                  !args.getBoolean("counts", false)
                      ? Future.succeededFuture(answer)
                      : tagTables
                          .counts(db, table, ctx.call())
                          .map(
                              counts ->
                                  answer
                                      .put(
                                          "by_count", new JsonArray(TagTables.busiestFirst(counts)))
                                      .put("counts", new JsonObject(Map.copyOf(counts))));
              return !args.getBoolean("spans", false)
                  ? counted
                  : counted.compose(
                      done ->
                          tagTables
                              .spans(db, table)
                              .map(
                                  spans -> {
                                    JsonObject byTag = new JsonObject();
                                    spans
                                        .byTag()
                                        .forEach(
                                            (tag, span) ->
                                                byTag.put(
                                                    tag,
                                                    new JsonArray().add(span[0]).add(span[1])));
                                    return done.put("spans", byTag);
                                  }));
            });
  }

  private Future<JsonObject> tableKinds(ToolContext ctx) {
    Database db = database(ctx);
    return db.tables()
        .compose(
            tables ->
                tagTables
                    .list(db)
                    .map(
                        tags -> {
                          JsonObject kinds = new JsonObject();
                          tables.stream()
                              .filter(TagTables::isRollup)
                              .forEach(t -> kinds.put(t.qualified(), "ROLLUP"));
                          tags.forEach(t -> kinds.put(t.table().qualified(), "TAG"));
                          return new JsonObject().put("kinds", kinds);
                        }));
  }

  private Future<JsonObject> tagProfile(ToolContext ctx) {
    Database db = database(ctx);
    String qualified = ctx.args().getString("table");
    return tagTables
        .list(db)
        .compose(
            tags ->
                tags.stream()
                    .filter(t -> t.table().qualified().equals(qualified))
                    .findFirst()
                    .map(
                        table ->
                            tagTables
                                .profile(db, table, zone(ctx), ctx.call())
                                .map(profile -> new JsonObject().put("profile", profile)))
                    .orElse(Future.succeededFuture(new JsonObject())));
  }

  /** The database the ask names ({@code connection}), or the default one. */
  private Database database(ToolContext ctx) {
    return databases.get(ctx.args().getString("connection"), ctx.account());
  }

  /** The zone the ask names ({@code timezone}), or the configured one. */
  private ZoneId zone(ToolContext ctx) {
    return TimezoneArg.zone(ctx.args().getString("timezone"), configuredZone);
  }
}
