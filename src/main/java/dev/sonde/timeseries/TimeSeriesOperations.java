package dev.sonde.timeseries;

import dev.sonde.db.Database;
import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Operation;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.ToolContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/** What other families ask of the time-series family: see {@link FamilyAsks}. */
final class TimeSeriesOperations {
  private final FamilyServices services;
  private final TagTables tagTables;
  private final Charts charts;

  private TimeSeriesOperations(FamilyServices services, TagTables tagTables, Charts charts) {
    this.services = services;
    this.tagTables = tagTables;
    this.charts = charts;
  }

  static List<Operation> all(FamilyServices services, TagTables tagTables, Charts charts) {
    TimeSeriesOperations ops = new TimeSeriesOperations(services, tagTables, charts);
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
            TimezoneArg.zone(services, ctx),
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
    Database db = ConnectionArg.database(services, ctx);
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
                              .spans(table)
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
    Database db = ConnectionArg.database(services, ctx);
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
    Database db = ConnectionArg.database(services, ctx);
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
                                .profile(db, table, TimezoneArg.zone(services, ctx), ctx.call())
                                .map(profile -> new JsonObject().put("profile", profile)))
                    .orElse(Future.succeededFuture(new JsonObject())));
  }
}
