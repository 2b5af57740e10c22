package dev.sonde.timeseries;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.Times;
import dev.sonde.core.Unit;
import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles a chart spec into SQL over a tag table (or its rollups), runs it once, and gives the
 * chart document: the spec, the plan (unit, period, source, notices), the SQL and an ECharts option
 * template, plus the data it drew. A saved chart keeps its spec and compiles again when opened, so
 * it follows the data and never runs SQL read back from a file.
 */
public final class Charts {
  private static final int RAW_POINTS = 10_000;

  private final DatabaseRegistry databases;
  private final TagTables tagTables;

  public Charts(DatabaseRegistry databases, TagTables tagTables) {
    this.databases = databases;
    this.tagTables = tagTables;
  }

  /** A compiled and executed chart: the document to save or return, and its series. */
  public record Compiled(JsonObject document, JsonArray series, JsonObject summary) {}

  /**
   * Compiles {@code spec} on connection {@code connection} (null: default) and runs it; stopping
   * {@code call} stops its statement.
   */
  public Future<Compiled> compile(String connection, JsonObject spec, ZoneId zone, Call call) {
    return compile(connection, spec, zone, null, call);
  }

  /**
   * The same, drawing up to {@code maxBuckets} buckets instead of what one chart at the unit draws:
   * a forecast trains on the whole series, not on the last screenful.
   */
  public Future<Compiled> compile(
      String connection, JsonObject spec, ZoneId zone, Integer maxBuckets, Call call) {
    Database db = databases.get(connection, call.account());
    String tableName;
    Engine engine;
    try {
      tableName = ChartSpec.table(spec);
      engine = Engine.of(db.dialectName());
    } catch (CallerException e) {
      return Future.failedFuture(e);
    }
    return tagTables
        .find(db, tableName)
        .compose(
            table ->
                tagTables
                    .spans(db, table)
                    .compose(
                        spans -> {
                          ChartSpec read = ChartSpec.read(spec, spans.tags());
                          long[] bounds = spans.bounds(read.tags(), table.table().qualified());
                          ChartRequest asked =
                              new ChartRequest(db, engine, table, read, zone, maxBuckets, call);
                          return tagTables
                              .rollups()
                              .ready(db, table, spans.newest())
                              .compose(rollups -> run(asked, rollups, bounds));
                        }));
  }

  private static Future<Compiled> run(ChartRequest asked, boolean rollups, long[] bounds) {
    Long start = asked.spec().time("start", asked.zone(), bounds);
    Long end = asked.spec().time("end", asked.zone(), bounds);
    return asked.spec().raw()
        ? raw(asked.asRaw(), start, end, bounds)
        : bucketed(asked, rollups, start, end, bounds);
  }

  private static Future<Compiled> bucketed(
      ChartRequest r, boolean rollups, Long start, Long end, long[] bounds) {
    ChartPlan plan =
        ChartPlan.of(
            new ChartPlan.Request(
                r.spec().kind(), r.spec().unit(), start, end, rollups, r.maxBuckets()),
            bounds[0],
            bounds[1]);
    Unit unit = plan.unit();
    long from = Buckets.alignDown(plan.start(), unit, plan.multiple(), r.zone());
    long until = Buckets.end(plan.end(), unit, plan.multiple(), r.zone());
    Unit rollup = rollups ? Rollups.coarsestFitting(plan, r.zone(), from, until) : null;
    // the engine cuts months by the zone's name; an offset suits the other buckets' arithmetic
    ZoneId sqlZone = unit == Unit.MONTH ? r.zone() : Buckets.constantOffset(r.zone(), from, until);
    String sql = r.sql().buckets(r.spec(), plan, sqlZone, from, until, rollup);
    JsonObject planJson =
        new JsonObject()
            .put("unit", unit.specName())
            .put("multiple", plan.multiple())
            .put("range", Times.range(from, until, r.zone()))
            .put("source", rollup == null ? "raw" : Rollups.tableName(r.table(), rollup))
            // a copy: the plan's list is fixed, and callers may add to a document's notices
            .put("notices", new JsonArray(new ArrayList<>(plan.notices())));
    return ChartSeries.read(r, r.spec().kind(), sql)
        .map(
            series ->
                ChartDocument.of(
                    r, series, sql, planJson, plan.multiple() + " " + unit.specName()));
  }

  /** Raw values of the asked period, or of the last drawable span before the data's last time. */
  private static Future<Compiled> raw(ChartRequest r, Long start, Long end, long[] bounds) {
    long until = end == null ? bounds[1] : Math.min(end, bounds[1]);
    long from =
        start == null
            ? Math.max(bounds[0], until - Unit.SEC.drawableMillis())
            : Math.max(start, bounds[0]);
    List<String> notices = new ArrayList<>();
    if (start == null) {
      notices.add(
          "raw values of the last "
              + ChartPlan.human(until - from)
              + " before the data's last time");
    }
    String sql = r.sql().raw(r.spec().tags(), from, until, RAW_POINTS + 1);
    return ChartSeries.read(r, ChartKind.TAGS, sql)
        .map(
            series -> {
              if (ChartSeries.points(series) > RAW_POINTS) {
                notices.add(
                    "only the first "
                        + RAW_POINTS
                        + " raw values are drawn; give a rollup unit to see the whole period");
              }
              JsonObject plan =
                  new JsonObject()
                      .put("unit", "raw")
                      .put("range", Times.range(from, until, r.zone()))
                      .put("source", "raw")
                      .put("notices", new JsonArray(notices));
              return ChartDocument.of(r, series, sql, plan, "raw");
            });
  }
}
