package dev.sonde.timeseries;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
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
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Compiles a chart spec into SQL over a tag table (or its rollups), runs it once, and gives the
 * chart document: the spec, the plan (unit, period, source, notices), the SQL and an ECharts option
 * template, plus the data it drew. A saved chart keeps its spec and compiles again when opened, so
 * it follows the data and never runs SQL read back from a file.
 */
public final class Charts {
  public static final String FORMAT = "sonde.chart";
  public static final int VERSION = 1;
  private static final int RAW_POINTS = 10_000;
  private static final Pattern CHART_FILE =
      Pattern.compile("([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)\\.chart\\.json");

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
    Database db = databases.get(connection);
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
                    .spans(table)
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

  private Future<Compiled> run(ChartRequest a, boolean rollups, long[] bounds) {
    Long start = a.spec().time("start", a.zone(), bounds);
    Long end = a.spec().time("end", a.zone(), bounds);
    List<String> notices = new ArrayList<>();
    if (a.spec().raw()) {
      return runRaw(a, start, end, bounds, notices);
    }
    UnitPhrase unit = a.spec().unit();
    ChartPlan plan =
        ChartPlan.of(
            new ChartPlan.Request(a.spec().kind(), unit, start, end, rollups, a.maxBuckets()),
            bounds[0],
            bounds[1]);
    notices.addAll(plan.notices());
    long from = Buckets.alignDown(plan.start(), plan.unit(), plan.multiple(), a.zone());
    long until = Buckets.end(plan.end(), plan.unit(), plan.multiple(), a.zone());
    Unit rollup = rollups ? Rollups.coarsestFitting(plan, a.zone(), from, until) : null;
    ZoneId sqlZone =
        plan.unit() == Unit.MONTH ? a.zone() : Buckets.constantOffset(a.zone(), from, until);
    String sql = a.sql().buckets(a.spec(), plan, sqlZone, from, until, rollup);
    String source = rollup == null ? "raw" : Rollups.tableName(a.table(), rollup);
    return ChartSeries.read(a, a.spec().kind(), sql)
        .map(
            series -> {
              JsonObject planJson =
                  new JsonObject()
                      .put("unit", plan.unit().specName())
                      .put("multiple", plan.multiple())
                      .put("range", Times.range(from, until, a.zone()))
                      .put("source", source);
              return finish(
                  a,
                  series,
                  sql,
                  planJson,
                  notices,
                  plan.multiple() + " " + plan.unit().specName());
            });
  }

  private Future<Compiled> runRaw(
      ChartRequest a, Long start, Long end, long[] bounds, List<String> notices) {
    long until = end == null ? bounds[1] : Math.min(end, bounds[1]);
    long from =
        start == null
            ? Math.max(bounds[0], until - Unit.SEC.drawableMillis())
            : Math.max(start, bounds[0]);
    if (start == null) {
      notices.add(
          "raw values of the last "
              + ChartPlan.human(until - from)
              + " before the data's last time");
    }
    String sql = a.sql().raw(a.spec().tags(), from, until, RAW_POINTS + 1);
    return ChartSeries.read(a.asRaw(), ChartKind.TAGS, sql)
        .map(
            series -> {
              if (ChartSeries.points(series) > RAW_POINTS) {
                notices.add(
                    "only the first "
                        + RAW_POINTS
                        + " raw values are drawn; give a rollup unit to see the whole period");
              }
              JsonObject planJson =
                  new JsonObject()
                      .put("unit", "raw")
                      .put("range", Times.range(from, until, a.zone()))
                      .put("source", "raw");
              return finish(a.asRaw(), series, sql, planJson, notices, "raw");
            });
  }

  private Compiled finish(
      ChartRequest a,
      JsonArray series,
      String sql,
      JsonObject plan,
      List<String> notices,
      String unitLabel) {
    if (ChartSeries.points(series) == 0) {
      throw new CallerException(
          "the chart ran but found no data in "
              + plan.getJsonObject("range").getString("start")
              + " – "
              + plan.getJsonObject("range").getString("end")
              + "; widen timeRange or leave it out");
    }
    plan.put("notices", new JsonArray(notices));
    JsonObject output = a.spec().output();
    String title =
        output.getString(
                "title", defaultTitle(a.spec().kind(), a.spec().tags(), a.spec().metrics()))
            + " · "
            + unitLabel;
    JsonObject document =
        new JsonObject()
            .put("format", FORMAT)
            .put("version", VERSION)
            .put("connection", a.db().name())
            .put("table", a.table().table().qualified())
            .put("kind", a.spec().kind().name().toLowerCase(Locale.ROOT))
            .put("tags", new JsonArray(a.spec().tags()))
            .put("timezone", a.zone().getId())
            .put("spec", a.spec().json().copy())
            .put("plan", plan)
            .put("sql", sql)
            .put(
                "option",
                EChartsOption.template(
                    a.spec().kind(),
                    output.getString("chartType", "line"),
                    title,
                    output.getString(
                        "subtitle",
                        a.table().table().name()
                            + " · "
                            + plan.getJsonObject("range").getString("start")
                            + " – "
                            + plan.getJsonObject("range").getString("end")),
                    series,
                    a.zone()));
    return new Compiled(document, series, summary(series, a.zone()));
  }

  private static String defaultTitle(
      ChartKind kind, List<String> tags, List<ChartSpec.Metric> metrics) {
    return switch (kind) {
      case METRICS ->
          tags.get(0)
              + " "
              + String.join(", ", metrics.stream().map(ChartSpec.Metric::label).toList());
      case OHLC -> tags.get(0) + " candlesticks";
      case GEOMAP -> "position (" + tags.get(0) + ", " + tags.get(1) + ")";
      case TAGS -> String.join(" vs ", tags) + " (" + metrics.get(0).label() + ")";
    };
  }

  /** Per series: points, first and last bucket, min, max and last value. */
  public static JsonObject summary(JsonArray series, ZoneId zone) {
    JsonArray out = new JsonArray();
    for (Object o : series) {
      JsonObject s = (JsonObject) o;
      JsonArray data = s.getJsonArray("data");
      JsonObject one = new JsonObject().put("name", s.getString("name")).put("points", data.size());
      if (!data.isEmpty()) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Object p : data) {
          Double v = ((JsonArray) p).getDouble(1);
          if (v != null) {
            min = Math.min(min, v);
            max = Math.max(max, v);
          }
        }
        JsonArray last = data.getJsonArray(data.size() - 1);
        one.put("first_time", Times.readable(data.getJsonArray(0).getLong(0), zone))
            .put("last_time", Times.readable(last.getLong(0), zone))
            .put("min", min)
            .put("max", max)
            .put("last", last.getValue(1));
      }
      out.add(one);
    }
    return new JsonObject().put("series", out);
  }

  /** TABLE/name.chart.json, ASCII, in the folder of the chart's table. */
  public static void checkFilename(String filename, String table) {
    var m = CHART_FILE.matcher(filename);
    if (!m.matches()) {
      throw new CallerException(
          "filename "
              + Quote.of(filename)
              + " must look like TABLE/name.chart.json in ASCII letters, digits, '.', '_' or '-',"
              + " e.g. EXAMPLE/temperature.chart.json");
    }
    String bare = table.contains(".") ? table.substring(table.lastIndexOf('.') + 1) : table;
    if (!m.group(1).equalsIgnoreCase(bare)) {
      throw new CallerException(
          "filename "
              + Quote.of(filename)
              + " must be in the folder of its table: "
              + bare
              + "/"
              + m.group(2)
              + ".chart.json");
    }
  }
}
