package dev.sonde.forecast;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.Unit;
import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.FamilyAsks;
import dev.sonde.tools.SeriesSpecArgs;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Forecasts of a tag table's tags: each tag's buckets are fetched the way a chart fetches them
 * (rollups where they fit, the period and unit fitted and said), gaps are filled, and the
 * forecaster ranks its models and forecasts ahead in the same buckets.
 */
public final class TableForecasts {
  public static final int MAX_TAGS = 5;
  private static final int MAX_POINTS = 5000;
  static final int MAX_HORIZON = 1000;
  private static final Pattern RANK =
      Pattern.compile("(?:rank\\s*#?\\s*(\\d+))|(?:(\\d+)\\s*(?:위|st|nd|rd|th))");
  static final Map<String, String> ALIASES =
      Map.ofEntries(
          Map.entry("선형", "linear"),
          Map.entry("2차", "quadratic"),
          Map.entry("계절성", "holtwinters"),
          Map.entry("holt-winters", "holtwinters"),
          Map.entry("holt_winters", "holtwinters"),
          Map.entry("holtwinters_add", "holtwinters"),
          Map.entry("damped_holt", "damped"),
          Map.entry("seasonal_naive", "snaive"),
          Map.entry("arima", "ar"));

  private final DatabaseRegistry databases;
  private final FamilyAsks asks;
  private final Forecaster forecaster = new Forecaster();

  /** Forecasts over {@code databases}, their tag tables read by asking the time-series family. */
  public TableForecasts(DatabaseRegistry databases, FamilyAsks asks) {
    this.databases = databases;
    this.asks = asks;
  }

  /** One tag's history (bucket times and values) and its forecast. */
  public record TagForecast(
      String tag, long[] times, double[] values, long[] ahead, Forecaster.Result result) {}

  /** Everything a forecast answer and its report show. */
  public record Outcome(
      String connection,
      String table,
      String unit,
      int horizon,
      ZoneId zone,
      String title,
      String subtitle,
      List<String> notices,
      List<TagForecast> tags,
      JsonObject spec) {}

  /**
   * Runs {@code spec} (see the tool's description) on {@code connection} in {@code zone} as part of
   * {@code call}: its fetches stop with it, its fits run on its pool and report to its steps.
   */
  public Future<Outcome> forecast(String connection, JsonObject spec, ZoneId zone, Call call) {
    String tableName = spec.getString("table");
    if (tableName == null || tableName.isBlank()) {
      return Future.failedFuture(
          new CallerException("spec.table is required: the tag table, e.g. GOLD"));
    }
    Integer horizon = spec.getInteger("horizon");
    if (horizon != null && (horizon < 1 || horizon > MAX_HORIZON)) {
      return Future.failedFuture(
          new CallerException(
              "horizon " + horizon + " is out of range: ask for 1 to " + MAX_HORIZON + " buckets"));
    }
    Forecaster.Choice choice;
    try {
      choice = choice(spec);
    } catch (CallerException e) {
      return Future.failedFuture(e);
    }
    Database db = databases.get(connection, call.account());
    List<String> notices = new ArrayList<>();
    List<String> asked = SeriesSpecArgs.tagsNamed(spec);
    boolean chooseByCount = asked.isEmpty() || asked.size() > MAX_TAGS;
    return asks.tagStats(db.name(), tableName, chooseByCount, false, call)
        .compose(
            stats -> {
              String table = stats.getString("table");
              List<String> tags =
                  chooseByCount ? byCount(table, asked, stats, notices) : List.copyOf(asked);
              call.step("fetch", "reading " + tags + " from " + tableName);
              List<Future<JsonObject>> fetches = new ArrayList<>();
              for (String tag : tags) {
                fetches.add(
                    asks.chartData(db.name(), chartSpec(spec, tag), zone, MAX_POINTS, call));
              }
              return Future.all(fetches)
                  .compose(
                      all ->
                          call.blocking(
                              () ->
                                  fit(
                                      db.name(),
                                      table,
                                      tags,
                                      all.<JsonObject>list(),
                                      spec,
                                      choice,
                                      zone,
                                      notices,
                                      call)));
            });
  }

  /**
   * The tags to forecast when none or too many were named: the busiest one, or the {@link
   * #MAX_TAGS} busiest of those named, said in a notice.
   */
  private static List<String> byCount(
      String table, List<String> asked, JsonObject stats, List<String> notices) {
    List<String> byCount =
        stats.getJsonArray("by_count", new JsonArray()).stream().map(String::valueOf).toList();
    if (asked.isEmpty()) {
      if (byCount.isEmpty()) {
        throw new CallerException(table + " has no rows");
      }
      notices.add(
          "no tag was named: forecasting " + byCount.get(0) + ", the tag with the most data");
      return List.of(byCount.get(0));
    }
    List<String> kept = byCount.stream().filter(asked::contains).limit(MAX_TAGS).toList();
    notices.add(
        asked.size()
            + " tags were named; forecasting the "
            + MAX_TAGS
            + " with the most data: "
            + kept);
    return kept;
  }

  private static JsonObject chartSpec(JsonObject spec, String tag) {
    JsonObject chart =
        new JsonObject()
            .put("kind", "metrics")
            .put("table", spec.getString("table"))
            .put("tag", tag)
            .put(
                "metrics",
                new JsonArray().add(new JsonObject().put("agg", "avg").put("label", tag)));
    if (spec.getValue("rollup") != null) {
      chart.put("rollup", spec.getValue("rollup"));
    }
    if (spec.getValue("rollupN") != null) {
      chart.put("rollupN", spec.getValue("rollupN"));
    }
    if (spec.getJsonObject("timeRange") != null) {
      chart.put("timeRange", spec.getJsonObject("timeRange"));
    }
    return chart;
  }

  private Outcome fit(
      String connection,
      String table,
      List<String> tags,
      List<JsonObject> fetched,
      JsonObject spec,
      Forecaster.Choice choice,
      ZoneId zone,
      List<String> notices,
      Call call) {
    List<TagForecast> out = new ArrayList<>();
    String unitLabel = null;
    int horizon = 0;
    for (int i = 0; i < tags.size(); i++) {
      String tag = tags.get(i);
      JsonObject compiled = fetched.get(i);
      JsonObject plan = compiled.getJsonObject("document").getJsonObject("plan");
      plan.getJsonArray("notices", new JsonArray()).forEach(n -> notices.add(tag + ": " + n));
      String unitName = plan.getString("unit");
      int multiple = plan.getInteger("multiple", 1);
      Unit unit = Unit.ofSpec(unitName);
      if (unit == null) {
        throw new CallerException(
            "forecasts need buckets: give spec.rollup (sec, min, hour, day, week or month)");
      }
      unitLabel = multiple + " " + unit.specName();
      Bucketed series =
          bucketed(
              compiled.getJsonArray("series").getJsonObject(0).getJsonArray("data"),
              unit,
              multiple,
              zone);
      if (series.filled() > 0) {
        notices.add(tag + ": " + series.filled() + " empty buckets were filled by interpolation");
      }
      long[] times = series.times();
      double[] values = series.values();
      Integer lookback = spec.getInteger("lookback");
      int keep = Math.min(values.length, lookback != null && lookback > 0 ? lookback : MAX_POINTS);
      if (keep < values.length) {
        if (lookback == null) {
          notices.add(tag + ": the last " + MAX_POINTS + " buckets are used");
        }
        times = java.util.Arrays.copyOfRange(times, times.length - keep, times.length);
        values = java.util.Arrays.copyOfRange(values, values.length - keep, values.length);
      }
      if (horizon == 0) {
        // one horizon for every tag compared: asked, or 20% of the first tag's training length
        Integer asked = spec.getInteger("horizon");
        horizon = asked != null ? asked : Math.max(1, (int) Math.round(values.length * 0.2));
      }
      int period = period(unit, multiple, values.length);
      Forecaster.Result result =
          forecaster.forecast(
              values,
              period,
              horizon,
              choice,
              (step, message) -> call.step(step, tag + ": " + message));
      out.add(
          new TagForecast(
              tag,
              times,
              values,
              ahead(times[times.length - 1], unit, multiple, horizon, zone),
              result));
    }
    JsonObject output = spec.getJsonObject("output", new JsonObject());
    String title =
        output.getString("title", "Forecast of " + String.join(", ", tags) + " in " + table);
    String subtitle =
        output.getString(
            "subtitle", horizon + " × " + unitLabel + " ahead, models ranked by backtest MASE");
    return new Outcome(
        connection, table, unitLabel, horizon, zone, title, subtitle, notices, out, spec.copy());
  }

  /**
   * The request's method, rank or alias as a choice; unknown names are refused by the forecaster.
   */
  static Forecaster.Choice choice(JsonObject spec) {
    Integer rank = spec.getInteger("rank");
    if (rank != null) {
      if (rank < 1) {
        throw new CallerException("rank is 1-based: 1 is the leaderboard's first");
      }
      return Forecaster.Choice.rank(rank);
    }
    String method = spec.getString("method");
    if (method == null || method.isBlank()) {
      return Forecaster.Choice.auto();
    }
    String name = method.trim().toLowerCase(Locale.ROOT);
    Matcher m = RANK.matcher(name);
    if (m.matches()) {
      return Forecaster.Choice.rank(Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2)));
    }
    return Forecaster.Choice.method(ALIASES.getOrDefault(name, name));
  }

  /**
   * The seasonal period of buckets of {@code multiple} {@code unit}: months repeat yearly, days
   * weekly; shorter buckets take the longest of day, hour and minute that they divide and that the
   * series covers three times.
   */
  static int period(Unit unit, int multiple, int points) {
    int period =
        switch (unit) {
          case MONTH -> 12 % multiple == 0 ? 12 / multiple : 1;
          case WEEK -> multiple == 1 ? 52 : 1;
          case DAY -> multiple == 1 ? 7 : 1;
          default -> {
            long width = unit.millis() * multiple;
            for (long cycle : new long[] {86_400_000L, 3_600_000L, 60_000L}) {
              long per = cycle / width;
              if (cycle % width == 0 && per >= 2 && points >= 3 * per) {
                yield (int) per;
              }
            }
            yield 1;
          }
        };
    return points >= 3 * period ? period : 1;
  }

  private record Bucketed(long[] times, double[] values, int filled) {}

  /** The buckets from first to last, with empty ones filled by linear interpolation. */
  private static Bucketed bucketed(JsonArray data, Unit unit, int multiple, ZoneId zone) {
    Map<Long, Double> byTime = new HashMap<>();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (Object o : data) {
      JsonArray point = (JsonArray) o;
      if (point.getValue(1) == null) {
        continue;
      }
      long t = point.getLong(0);
      byTime.put(t, point.getDouble(1));
      first = Math.min(first, t);
      last = Math.max(last, t);
    }
    if (byTime.isEmpty()) {
      throw new CallerException("the period holds no values to forecast from");
    }
    List<Long> grid = new ArrayList<>();
    for (long t = first; t <= last; t = next(t, unit, multiple, zone, 1)) {
      grid.add(t);
    }
    long[] times = new long[grid.size()];
    double[] values = new double[grid.size()];
    int filled = 0;
    for (int i = 0; i < times.length; i++) {
      times[i] = grid.get(i);
      Double v = byTime.get(times[i]);
      values[i] = v == null ? Double.NaN : v;
    }
    for (int i = 0; i < values.length; i++) {
      if (Double.isNaN(values[i])) {
        int j = i;
        while (Double.isNaN(values[j])) {
          j++;
        }
        double from = values[i - 1];
        double to = values[j];
        for (int k = i; k < j; k++) {
          values[k] = from + (to - from) * (k - i + 1) / (j - i + 1);
          filled++;
        }
        i = j;
      }
    }
    return new Bucketed(times, values, filled);
  }

  private static long[] ahead(long last, Unit unit, int multiple, int horizon, ZoneId zone) {
    long[] out = new long[horizon];
    for (int j = 0; j < horizon; j++) {
      out[j] = next(last, unit, multiple, zone, j + 1);
    }
    return out;
  }

  /** The start of the bucket {@code steps} buckets after the one starting at {@code t}. */
  private static long next(long t, Unit unit, int multiple, ZoneId zone, int steps) {
    if (!unit.calendar()) {
      return t + unit.millis() * multiple * steps;
    }
    ChronoUnit chrono =
        switch (unit) {
          case DAY -> ChronoUnit.DAYS;
          case WEEK -> ChronoUnit.WEEKS;
          default -> ChronoUnit.MONTHS;
        };
    return Instant.ofEpochMilli(t)
        .atZone(zone)
        .plus((long) multiple * steps, chrono)
        .toInstant()
        .toEpochMilli();
  }
}
