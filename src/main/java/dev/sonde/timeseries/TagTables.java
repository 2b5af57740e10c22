package dev.sonde.timeseries;

import dev.sonde.config.SondeConfig;
import dev.sonde.config.SondeConfig.TagTableConfig;
import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.Times;
import dev.sonde.core.Unit;
import dev.sonde.db.Database;
import dev.sonde.db.TableRef;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The tag tables of every connection: those named in {@code timeseries.tables} and those whose
 * shape says so (one tag-name column, one time column, numeric values). Keeps each table's tag list
 * current from the rows that arrive after the last look, instead of scanning the table again.
 */
public final class TagTables {
  private static final Pattern TAG_COLUMN =
      Pattern.compile(
          "(?i)name|tag|tag_?name|tagname|tag_?id|sensor|sensor_?(id|name)|metric|metric_?name"
              + "|series|signal|channel|point|symbol|ticker|device|device_?(id|name)|item");
  private static final Pattern KEY_COLUMN = Pattern.compile("(?i)id|.*_id|seq|.*_seq");
  static final String ROLLUP_PREFIX = "_sonde_rollup";

  private final SondeConfig config;
  private final Rollups rollups;
  private final Map<String, Detected> detected = new ConcurrentHashMap<>();
  private final Map<String, TagList> tagLists = new ConcurrentHashMap<>();

  /**
   * A connection's tag tables as detected at {@code at}, and the names already resolved to them.
   */
  private record Detected(long at, List<TagTable> tables, Map<String, TagTable> found) {}

  /** A table's tags with their first and last times, and the newest time read up to. */
  private static final class TagList {
    final Map<String, long[]> spans = new TreeMap<>();
    long watermark = Long.MIN_VALUE;
    Future<Spans> pending;
  }

  public TagTables(Vertx vertx, SondeConfig config) {
    this.config = config;
    this.rollups = new Rollups(vertx, config.timeseries().refreshSeconds());
  }

  public Rollups rollups() {
    return rollups;
  }

  /** Every tag table of a connection, detected again once the schema-watch interval has passed. */
  public Future<List<TagTable>> list(Database db) {
    Detected cached = detected.get(db.identityKey());
    long now = System.currentTimeMillis();
    if (cached != null && now - cached.at() < config.databases().schemaWatchSeconds() * 1000L) {
      return Future.succeededFuture(cached.tables());
    }
    List<TagTableConfig> configured =
        config.timeseries().tables().values().stream()
            .filter(t -> t.connection().equals(db.name()))
            .toList();
    return db.tables()
        .compose(
            tables ->
                db.resolveAll(configured.stream().map(TagTableConfig::table).toList())
                    .compose(
                        resolved ->
                            db.read(c -> detect(db.name(), c, tables, configured, resolved))))
        .onSuccess(
            found ->
                detected.put(
                    db.identityKey(), new Detected(now, found, new ConcurrentHashMap<>())));
  }

  /** The tag table {@code name} resolves to, or a refusal listing the tag tables there are. */
  public Future<TagTable> find(Database db, String name) {
    // a name asked again while the detection is fresh skips the catalog
    Detected fresh = detected.get(db.identityKey());
    if (fresh != null
        && System.currentTimeMillis() - fresh.at()
            < config.databases().schemaWatchSeconds() * 1000L) {
      TagTable known = fresh.found().get(name);
      if (known != null) {
        return Future.succeededFuture(known);
      }
    }
    return db.resolveAll(List.of(name))
        .compose(
            resolved -> {
              Database.Resolved r = resolved.get(0);
              if (r.table() == null) {
                return Future.failedFuture(new CallerException(r.error()));
              }
              return list(db)
                  .compose(
                      tables -> {
                        for (TagTable t : tables) {
                          if (t.table().qualified().equals(r.table().qualified())) {
                            Detected current = detected.get(db.identityKey());
                            if (current != null) {
                              current.found().put(name, t);
                            }
                            return Future.succeededFuture(t);
                          }
                        }
                        return Future.failedFuture(
                            new CallerException(
                                r.table().qualified()
                                    + " is not a tag table (tag name, time, value columns);"
                                    + " tag tables here: "
                                    + tables.stream().map(t -> t.table().qualified()).toList()
                                    + ". Name others in timeseries.tables."));
                      });
            });
  }

  /** Is this one of Sonde's rollup tables, which list_tables shows as ROLLUP? */
  public static boolean isRollup(TableRef table) {
    return table.name().toLowerCase(Locale.ROOT).startsWith(ROLLUP_PREFIX);
  }

  private static List<TagTable> detect(
      String connection,
      Connection c,
      List<TableRef> tables,
      List<TagTableConfig> configured,
      List<Database.Resolved> resolved)
      throws SQLException {
    Map<String, TableRef> byKey = new LinkedHashMap<>();
    for (TableRef t : tables) {
      if (!isRollup(t)) {
        byKey.put(key(t.catalog(), t.schema(), t.name()), t);
      }
    }
    Map<String, List<Column>> columns = new LinkedHashMap<>();
    DatabaseMetaData md = c.getMetaData();
    try (ResultSet rs = md.getColumns(null, null, "%", "%")) {
      while (rs.next()) {
        String key =
            key(rs.getString("TABLE_CAT"), rs.getString("TABLE_SCHEM"), rs.getString("TABLE_NAME"));
        if (byKey.containsKey(key)) {
          columns
              .computeIfAbsent(key, k -> new ArrayList<>())
              .add(
                  new Column(
                      rs.getString("COLUMN_NAME"),
                      rs.getInt("DATA_TYPE"),
                      rs.getString("TYPE_NAME"),
                      rs.getInt("ORDINAL_POSITION")));
        }
      }
    }
    List<TagTable> out = new ArrayList<>();
    for (int i = 0; i < configured.size(); i++) {
      TableRef table = resolved.get(i).table();
      if (table == null) {
        continue;
      }
      TagTableConfig tc = configured.get(i);
      List<Column> cols =
          columns.getOrDefault(key(table.catalog(), table.schema(), table.name()), List.of());
      boolean zoned =
          cols.stream().anyMatch(col -> col.name().equalsIgnoreCase(tc.time()) && col.zoned());
      out.add(
          new TagTable(
              connection, table.withKind("TAG"), tc.tag(), tc.time(), tc.values(), zoned, true));
    }
    for (Map.Entry<String, List<Column>> e : columns.entrySet()) {
      TableRef table = byKey.get(e.getKey());
      if (out.stream().noneMatch(t -> t.table().qualified().equals(table.qualified()))) {
        TagTable shaped = byShape(connection, table, e.getValue());
        if (shaped != null) {
          out.add(shaped);
        }
      }
    }
    return List.copyOf(out);
  }

  private record Column(String name, int type, String typeName, int position) {
    boolean text() {
      return type == Types.VARCHAR
          || type == Types.CHAR
          || type == Types.NVARCHAR
          || type == Types.LONGVARCHAR
          || typeName.equalsIgnoreCase("text");
    }

    boolean time() {
      return type == Types.TIMESTAMP || type == Types.TIMESTAMP_WITH_TIMEZONE || zoned();
    }

    boolean zoned() {
      String t = typeName.toLowerCase(Locale.ROOT);
      return type == Types.TIMESTAMP_WITH_TIMEZONE
          || t.equals("timestamptz")
          || t.contains("with time zone");
    }

    boolean numeric() {
      return switch (type) {
        case Types.TINYINT,
            Types.SMALLINT,
            Types.INTEGER,
            Types.BIGINT,
            Types.REAL,
            Types.FLOAT,
            Types.DOUBLE,
            Types.DECIMAL,
            Types.NUMERIC ->
            true;
        default -> false;
      };
    }
  }

  /**
   * A tag table by shape: exactly one text column with a tag-like name, exactly one timestamp, the
   * rest numeric, at least one of them a value rather than a key, eight columns at most.
   */
  private static TagTable byShape(String connection, TableRef table, List<Column> columns) {
    if (columns.size() < 3 || columns.size() > 8) {
      return null;
    }
    List<Column> sorted = new ArrayList<>(columns);
    sorted.sort((a, b) -> Integer.compare(a.position(), b.position()));
    List<Column> texts = sorted.stream().filter(Column::text).toList();
    List<Column> times = sorted.stream().filter(Column::time).toList();
    List<Column> numbers = sorted.stream().filter(Column::numeric).toList();
    if (texts.size() != 1
        || times.size() != 1
        || texts.size() + times.size() + numbers.size() != sorted.size()
        || !TAG_COLUMN.matcher(texts.get(0).name()).matches()) {
      return null;
    }
    List<String> values =
        numbers.stream().map(Column::name).filter(n -> !KEY_COLUMN.matcher(n).matches()).toList();
    if (values.isEmpty()) {
      return null;
    }
    return new TagTable(
        connection,
        table.withKind("TAG"),
        texts.get(0).name(),
        times.get(0).name(),
        values,
        times.get(0).zoned(),
        false);
  }

  private static String key(String catalog, String schema, String name) {
    return catalog + "\u0000" + schema + "\u0000" + name;
  }

  /**
   * The table's tag names, sorted. The first call reads them all; later calls only read the rows
   * newer than the last one seen, so the list stays current without a full scan.
   */
  public Future<List<String>> tags(Database db, TagTable table) {
    return spans(db, table).map(Spans::tags);
  }

  /** Each tag's first and last time (epoch ms), as the kept list has them. */
  public record Spans(Map<String, long[]> byTag) {
    public List<String> tags() {
      return List.copyOf(byTag.keySet());
    }

    /** The table's newest time, which tells whether its rollups are behind. */
    public long newest() {
      return byTag.values().stream().mapToLong(span -> span[1]).max().orElse(Long.MIN_VALUE);
    }

    /** The first and last time of {@code tags} together: where a chart's data is, unscanned. */
    public long[] bounds(List<String> tags, String table) {
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (String tag : tags) {
        long[] span = byTag.get(tag);
        if (span != null) {
          first = Math.min(first, span[0]);
          last = Math.max(last, span[1]);
        }
      }
      if (first > last) {
        throw new CallerException("the tags " + tags + " have no rows in " + table);
      }
      return new long[] {first, last};
    }
  }

  /** Each tag's first and last time, brought up to the newest rows. */
  public synchronized Future<Spans> spans(Database reader, TagTable table) {
    // read as the login where reads run as it, else as the account, whose grants may differ
    boolean asLogin = reader.readsAsItsLogin();
    TagList list =
        tagLists.computeIfAbsent(
            asLogin ? table.key() : table.key() + "\u0000" + reader.identityKey(),
            k -> new TagList());
    if (list.pending != null) {
      return list.pending;
    }
    Database db = asLogin ? reader.own() : reader;
    Engine engine = Engine.of(db.dialectName());
    String tag = db.quote(table.tagColumn());
    String time = db.quote(table.timeColumn());
    String ms = engine.epochMs(time);
    long since = list.watermark;
    String sql =
        "SELECT "
            + tag
            + ", min("
            + ms
            + "), max("
            + ms
            + ") FROM "
            + db.quoted(table.table())
            + (since == Long.MIN_VALUE
                ? ""
                : " WHERE " + time + " > " + engine.timeLiteral(since, table.zoned()))
            + " GROUP BY "
            + tag;
    // the read may finish before this method returns: mark it pending first, clear only itself
    Promise<Spans> read = Promise.promise();
    list.pending = read.future();
    db.read(
            c -> {
              try (Statement st = c.createStatement();
                  ResultSet rs = st.executeQuery(sql)) {
                synchronized (list) {
                  while (rs.next()) {
                    String name = rs.getString(1);
                    long first = rs.getLong(2);
                    long last = rs.getLong(3);
                    if (name != null) {
                      list.spans.merge(
                          name,
                          new long[] {first, last},
                          (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
                    }
                    list.watermark = Math.max(list.watermark, last);
                  }
                  return Map.copyOf(new TreeMap<>(list.spans));
                }
              }
            })
        .map(copy -> new Spans(new TreeMap<>(copy)))
        .onComplete(
            done -> {
              synchronized (this) {
                if (list.pending == read.future()) {
                  list.pending = null;
                }
              }
              read.handle(done);
            });
    return read.future();
  }

  /** The closest tag names to one that does not exist, best first. */
  public static List<String> closest(String wanted, List<String> tags, int max) {
    String w = wanted.toLowerCase(Locale.ROOT);
    return tags.stream()
        .sorted(
            (a, b) ->
                Integer.compare(
                    distance(w, a.toLowerCase(Locale.ROOT)),
                    distance(w, b.toLowerCase(Locale.ROOT))))
        .limit(max)
        .toList();
  }

  private static int distance(String a, String b) {
    if (b.contains(a) || a.contains(b)) {
      return Math.abs(a.length() - b.length()) / 4;
    }
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] swap = prev;
      prev = cur;
      cur = swap;
    }
    return prev[b.length()];
  }

  private static final int PROFILED_TAGS = 100;

  /**
   * What describe_table adds for a tag table: column roles, rollups, per-tag count, average, min
   * and max, and the time range in epoch ms and readable in {@code zone}. Read from the hour rollup
   * when it is current, from the raw rows otherwise.
   */
  public Future<JsonObject> profile(Database db, TagTable table, ZoneId zone, Call call) {
    return stats(db, table, call)
        .map(stats -> profileJson(db, table, zone, stats.rows(), stats.fromRollup()));
  }

  /** Each tag's number of values; stopping {@code call} stops the scan. */
  public Future<Map<String, Long>> counts(Database db, TagTable table, Call call) {
    return stats(db, table, call)
        .map(
            stats -> {
              Map<String, Long> out = new LinkedHashMap<>();
              stats.rows().forEach(r -> out.put(r.tag(), r.count()));
              return out;
            });
  }

  /** The table's tags, those with the most values first (ties by name). */
  public Future<List<String>> byCount(Database db, TagTable table, Call call) {
    return counts(db, table, call).map(TagTables::busiestFirst);
  }

  /** Tags ordered by their number of values, most first (ties by name). */
  public static List<String> busiestFirst(Map<String, Long> counts) {
    return counts.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .map(Map.Entry::getKey)
        .toList();
  }

  private record Stats(List<TagStats> rows, boolean fromRollup) {}

  /** Per-tag statistics, from the hour rollup when it is current, from the raw rows otherwise. */
  private Future<Stats> stats(Database db, TagTable table, Call call) {
    Engine engine = Engine.of(db.dialectName());
    return spans(db, table)
        .compose(spans -> rollups.ready(db, table, spans.newest()))
        .compose(
            fromRollup -> {
              String sql;
              if (fromRollup) {
                sql =
                    "SELECT tag, sum(cnt), sum(sum_v) / sum(cnt), min(min_v), max(max_v),"
                        + " min(first_ms), max(last_ms) FROM "
                        + Rollups.qualified(db, table, Rollups.tableName(table, Unit.HOUR))
                        + " GROUP BY tag ORDER BY 1";
              } else {
                String v = db.quote(table.valueColumn());
                String ms = engine.epochMs(db.quote(table.timeColumn()));
                sql =
                    "SELECT "
                        + db.quote(table.tagColumn())
                        + ", count("
                        + v
                        + "), avg("
                        + v
                        + "), min("
                        + v
                        + "), max("
                        + v
                        + "), min("
                        + ms
                        + "), max("
                        + ms
                        + ") FROM "
                        + db.quoted(table.table())
                        + " GROUP BY 1 ORDER BY 1";
              }
              return db.read(c -> profileRows(c, sql), call)
                  .map(rows -> new Stats(rows, fromRollup));
            });
  }

  private record TagStats(
      String tag, long count, double avg, double min, double max, long first, long last) {}

  private static List<TagStats> profileRows(Connection c, String sql) throws SQLException {
    List<TagStats> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(
            new TagStats(
                rs.getString(1),
                rs.getLong(2),
                rs.getDouble(3),
                rs.getDouble(4),
                rs.getDouble(5),
                rs.getLong(6),
                rs.getLong(7)));
      }
    }
    return out;
  }

  private JsonObject profileJson(
      Database db, TagTable table, ZoneId zone, List<TagStats> rows, boolean fromRollup) {
    JsonArray roles = new JsonArray();
    roles.add(new JsonObject().put("column", table.tagColumn()).put("role", "PRIMARY KEY"));
    roles.add(new JsonObject().put("column", table.timeColumn()).put("role", "BASETIME"));
    for (int i = 0; i < table.valueColumns().size(); i++) {
      roles.add(
          new JsonObject()
              .put("column", table.valueColumns().get(i))
              .put("role", i == 0 ? "SUMMARIZED" : "VALUE"));
    }
    JsonArray tags = new JsonArray();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (TagStats r : rows) {
      first = Math.min(first, r.first());
      last = Math.max(last, r.last());
      if (tags.size() < PROFILED_TAGS) {
        tags.add(
            new JsonObject()
                .put("name", r.tag())
                .put("count", r.count())
                .put("avg", r.avg())
                .put("min", r.min())
                .put("max", r.max()));
      }
    }
    JsonObject out =
        new JsonObject()
            .put("type", "TAG")
            .put("roles", roles)
            .put("rollups", rollups.describe(db, table))
            .put("tag_count", rows.size())
            .put("tags", tags)
            .put("stats_from", fromRollup ? "hour rollup" : "raw rows");
    if (rows.size() > PROFILED_TAGS) {
      out.put(
          "note",
          "statistics of the first "
              + PROFILED_TAGS
              + " tags by name; list_table_tags lists all "
              + rows.size());
    }
    if (!rows.isEmpty()) {
      out.put("time_range", Times.range(first, last, zone));
    }
    return out;
  }
}
