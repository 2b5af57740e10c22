package dev.sonde.timeseries;

import dev.sonde.core.Unit;
import dev.sonde.db.Database;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The SQL of a chart over one tag table: its raw values, or its buckets from the raw rows or from a
 * rollup. Only what differs between engines comes from {@link Engine}.
 */
final class ChartSql {
  /** Every zone offset is a multiple of a quarter hour. */
  private static final long QUARTER_HOUR = 15 * 60_000L;

  private final Database db;
  private final Engine engine;
  private final TagTable table;
  private final String time;
  private final String tag;
  private final String value;

  ChartSql(Database db, Engine engine, TagTable table) {
    this.db = db;
    this.engine = engine;
    this.table = table;
    this.time = db.quote(table.timeColumn());
    this.tag = db.quote(table.tagColumn());
    this.value = db.quote(table.valueColumn());
  }

  /** The raw values of {@code tags} from {@code from} to {@code until}, the first {@code limit}. */
  String raw(List<String> tags, long from, long until, int limit) {
    return "SELECT "
        + engine.epochMs(time)
        + " AS t, "
        + tag
        + " AS tag, "
        + value
        + " AS v FROM "
        + db.quoted(table.table())
        + " WHERE "
        + in(tag, tags)
        + " AND "
        + timeFrom(from, "<=", until)
        + " ORDER BY 1 LIMIT "
        + limit;
  }

  /**
   * The buckets of {@code plan} from {@code from} until {@code until}, from {@code rollup} or
   * (null) the raw rows. {@code zone} is the chart's zone, or its offset where that does not
   * change.
   */
  String buckets(ChartSpec spec, ChartPlan plan, ZoneId zone, long from, long until, Unit rollup) {
    boolean summarised = rollup == null && summarisesFirst(plan.unit(), zone, from, until);
    boolean fromRollup = rollup != null || summarised;
    String ms = fromRollup ? "bucket" : engine.epochMs(time);
    String tagOut = fromRollup ? "tag" : tag;
    String range =
        fromRollup ? "bucket >= " + from + " AND bucket < " + until : timeFrom(from, "<", until);
    boolean perTag = spec.kind().perTag();
    return "SELECT "
        + engine.bucket(ms, plan.unit(), plan.multiple(), zone)
        + " AS t"
        + (perTag ? ", " + tagOut + " AS tag" : "")
        + ", "
        + String.join(", ", columns(spec, fromRollup))
        + " FROM "
        + source(spec.tags(), from, until, rollup, summarised)
        + " WHERE "
        + in(tagOut, spec.tags())
        + " AND "
        + range
        + (fromRollup ? "" : " AND " + value + " IS NOT NULL")
        + " GROUP BY 1"
        + (perTag ? ", 2" : "")
        + " ORDER BY 1";
  }

  /**
   * Calendar buckets from raw rows are summarised by quarter hours first where the zone allows it,
   * so the zone conversion runs per quarter hour instead of per row.
   */
  private static boolean summarisesFirst(Unit unit, ZoneId zone, long from, long until) {
    return unit.calendar()
        && !(zone instanceof ZoneOffset && unit != Unit.MONTH)
        && Buckets.offsetsAreMultiplesOf(zone, from, until, QUARTER_HOUR);
  }

  private String source(List<String> tags, long from, long until, Unit rollup, boolean summarised) {
    if (summarised) {
      String rows = in(tag, tags) + " AND " + timeFrom(from, "<", until);
      return "(" + Rollups.summary(db, table, QUARTER_HOUR, rows) + ") AS q";
    }
    return rollup != null
        ? Rollups.qualified(db, table, Rollups.tableName(table, rollup))
        : db.quoted(table.table());
  }

  private List<String> columns(ChartSpec spec, boolean fromRollup) {
    if (spec.kind() == ChartKind.OHLC) {
      return fromRollup
          ? List.of(
              engine.first("first_v", "first_ms"),
              engine.last("last_v", "last_ms"),
              "min(min_v)",
              "max(max_v)")
          : List.of(
              engine.first(value, time),
              engine.last(value, time),
              "min(" + value + ")",
              "max(" + value + ")");
    }
    return spec.metrics().stream().map(m -> aggregate(m.agg(), fromRollup)).toList();
  }

  private String aggregate(String agg, boolean fromRollup) {
    if (fromRollup) {
      return switch (agg) {
        case "avg" -> "sum(sum_v) / sum(cnt)";
        case "max" -> "max(max_v)";
        case "min" -> "min(min_v)";
        case "sum" -> "sum(sum_v)";
        case "count" -> "sum(cnt)";
        default -> "sum(sumsq_v)";
      };
    }
    return switch (agg) {
      case "avg", "max", "min", "sum", "count" -> agg + "(" + value + ")";
      default -> "sum(" + value + " * " + value + ")";
    };
  }

  /** The time column from {@code from} up to {@code until}, {@code below} "<" or "<=". */
  private String timeFrom(long from, String below, long until) {
    return time
        + " >= "
        + engine.timeLiteral(from, table.zoned())
        + " AND "
        + time
        + " "
        + below
        + " "
        + engine.timeLiteral(until, table.zoned());
  }

  private static String in(String column, List<String> tags) {
    return column
        + " IN ("
        + String.join(", ", tags.stream().map(t -> "'" + t.replace("'", "''") + "'").toList())
        + ")";
  }
}
