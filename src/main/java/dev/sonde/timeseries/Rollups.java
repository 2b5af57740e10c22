package dev.sonde.timeseries;

import dev.sonde.core.Unit;
import dev.sonde.db.Database;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rollup tables beside a tag table, per second, minute and hour: count, sum, min, max, sum of
 * squares, first and last of its first value column, keyed by tag and bucket start (epoch ms).
 * Created on first use where the connection allows it ({@code rollups: true}), then kept current:
 * each refresh rebuilds only the buckets from the last one it saw onwards, seconds from the raw
 * rows, minutes from seconds, hours from minutes, in one transaction. A row that arrives later than
 * rows of a bucket already closed is not picked up; {@link #rebuild} starts over.
 */
public final class Rollups {
  private static final Logger LOG = LoggerFactory.getLogger(Rollups.class);
  static final List<Unit> UNITS = List.of(Unit.SEC, Unit.MIN, Unit.HOUR);

  /** About how many raw rows one update step reads. */
  private static final long ROWS_PER_STEP = 5_000_000L;

  private static final String STATE = TagTables.ROLLUP_PREFIX + "_state";

  private final Map<String, Tracked> tracked = new ConcurrentHashMap<>();

  /** A table's rollups: where they stand, and the refresh that is running, if any. */
  private static final class Tracked {
    final Database db;
    final TagTable table;
    volatile State state = State.UNKNOWN;
    volatile long upTo = Long.MIN_VALUE;
    volatile String error;

    /** The data time one step covers, sized on the first step from the table's density. */
    volatile long stepSpan;

    Future<Void> running = Future.succeededFuture();

    Tracked(Database db, TagTable table) {
      this.db = db;
      this.table = table;
    }
  }

  enum State {
    UNKNOWN,
    BUILDING,
    READY,
    FAILED
  }

  Rollups(Vertx vertx, int refreshSeconds) {
    vertx.setPeriodic(refreshSeconds * 1000L, id -> refreshAll());
  }

  /** The name of a rollup table, in the schema of its tag table. */
  static String tableName(TagTable table, Unit unit) {
    return TagTables.ROLLUP_PREFIX + "_" + table.table().name() + "_" + unit.specName();
  }

  static String qualified(Database db, TagTable table, String name) {
    String schema = table.table().schema();
    return schema == null || schema.isEmpty()
        ? db.quote(name)
        : db.quote(schema) + "." + db.quote(name);
  }

  /**
   * The coarsest rollup whose buckets fit whole into {@code plan}'s from {@code from} until {@code
   * until} in {@code zone}, or null: only the raw rows can answer.
   */
  static Unit coarsestFitting(ChartPlan plan, ZoneId zone, long from, long until) {
    for (Unit r : List.of(Unit.HOUR, Unit.MIN, Unit.SEC)) {
      boolean fits =
          plan.unit().calendar()
              ? Buckets.offsetsAreMultiplesOf(zone, from, until, r.millis())
              : (plan.unit().millis() * plan.multiple()) % r.millis() == 0;
      if (fits) {
        return r;
      }
    }
    return null;
  }

  /**
   * Whether rollups can answer for {@code table} now, brought up to {@code newest} (its newest row,
   * from the kept tag list). The first call starts catching up in the background, from the rollups
   * an earlier run left or from nothing, and answers false meanwhile; a connection without {@code
   * rollups: true} always answers false.
   */
  public Future<Boolean> ready(Database db, TagTable table, long newest) {
    // rollups are Sonde's, read as the login: an account the database knows by its own role or
    // user reads the table itself, so its grants decide
    if (!db.config().rollups() || !db.readsAsItsLogin()) {
      return Future.succeededFuture(false);
    }
    Tracked t = tracked.computeIfAbsent(table.key(), k -> new Tracked(db.own(), table));
    return switch (t.state) {
      case READY ->
          t.upTo >= newest
              ? Future.succeededFuture(true)
              : refresh(t).map(v -> t.state == State.READY);
      case BUILDING, FAILED -> Future.succeededFuture(false);
      case UNKNOWN -> {
        // found from an earlier run or built anew, in the background: raw rows answer meanwhile
        t.state = State.BUILDING;
        refresh(t);
        yield Future.succeededFuture(false);
      }
    };
  }

  /** What describe_table says about a table's rollups. */
  public JsonObject describe(Database db, TagTable table) {
    JsonObject out =
        new JsonObject().put("units", new JsonArray(UNITS.stream().map(Unit::specName).toList()));
    if (!db.config().rollups()) {
      return out.put("available", false)
          .put("state", "off")
          .put(
              "note",
              "the connection does not let Sonde create tables (rollups: false); charts bucket the raw rows");
    }
    Tracked t = tracked.get(table.key());
    State state = t == null ? State.UNKNOWN : t.state;
    out.put("available", state == State.READY)
        .put("state", state.name().toLowerCase(java.util.Locale.ROOT));
    if (state == State.READY) {
      out.put("up_to_ms", t.upTo)
          .put("tables", new JsonArray(UNITS.stream().map(u -> tableName(table, u)).toList()));
    }
    if (t != null && t.error != null) {
      out.put("error", t.error);
    }
    return out;
  }

  private void refreshAll() {
    // failed ones are tried again, in case what stopped them has gone
    tracked.values().stream()
        .filter(t -> t.state == State.READY || t.state == State.FAILED)
        .forEach(this::refresh);
  }

  private Future<Void> refresh(Tracked t) {
    return enqueue(t, () -> catchUp(t));
  }

  /** Runs one refresh after the one before it, never two at once for a table. */
  private synchronized Future<Void> enqueue(Tracked t, Supplier<Future<Void>> work) {
    Promise<Void> done = Promise.promise();
    t.running.onComplete(ignored -> work.get().onComplete(done));
    t.running = done.future();
    return t.running;
  }

  /**
   * One step after another until the rollups reach the newest row; each step is started from the
   * last one's callback, so a long build never nests futures.
   */
  private Future<Void> catchUp(Tracked t) {
    Promise<Void> done = Promise.promise();
    step(t, done);
    return done.future();
  }

  private void step(Tracked t, Promise<Void> done) {
    long span = t.stepSpan;
    t.db
        .maintain(c -> update(c, t.db, t.table, span))
        .onComplete(
            ar -> {
              if (ar.failed()) {
                t.state = State.FAILED;
                t.error = ar.cause().getMessage();
                LOG.warn("rollups of {} failed: {}", t.table.key(), ar.cause().getMessage());
                done.complete();
                return;
              }
              Step s = ar.result();
              t.upTo = s.upTo();
              t.stepSpan = s.span();
              if (!s.done()) {
                step(t, done);
                return;
              }
              t.state = State.READY;
              t.error = null;
              done.complete();
            });
  }

  /** How far one update took the rollups, and whether that reaches the newest row. */
  private record Step(long upTo, boolean done, long span) {}

  /**
   * Rebuilds the buckets from the hour that holds the last row seen, over the step's span of data
   * time: seconds from raw rows, minutes from seconds, hours from minutes. Short steps keep a first
   * build of a big table from holding one long transaction, and a build cut short resumes.
   */
  private static Step update(Connection c, Database db, TagTable table, long stepSpan)
      throws SQLException {
    Engine engine = Engine.of(db.dialectName());
    String time = db.quote(table.timeColumn());
    String raw = db.quoted(table.table());
    String state = qualified(db, table, STATE);
    execute(
        c,
        "CREATE TABLE IF NOT EXISTS "
            + state
            + " (table_name VARCHAR NOT NULL, unit VARCHAR NOT NULL, watermark_ms BIGINT NOT NULL)");
    Long mark = watermark(c, db, table, Unit.HOUR);
    Long newest = single(c, "SELECT max(" + engine.epochMs(time) + ") FROM " + raw);
    if (newest == null) {
      return new Step(Long.MIN_VALUE, true, stepSpan);
    }
    long hour = Unit.HOUR.millis();
    long start =
        Math.floorDiv(
                mark != null
                    ? mark
                    : single(c, "SELECT min(" + engine.epochMs(time) + ") FROM " + raw),
                hour)
            * hour;
    long span = stepSpan > 0 ? stepSpan : stepSpan(c, engine, raw, time);
    long end = Math.min(newest + 1, start + span);
    String name = "'" + table.table().name().replace("'", "''") + "'";
    Unit finer = null;
    for (Unit unit : UNITS) {
      String rollup = qualified(db, table, tableName(table, unit));
      execute(
          c,
          "CREATE TABLE IF NOT EXISTS "
              + rollup
              + " (tag VARCHAR, bucket BIGINT NOT NULL, cnt BIGINT NOT NULL, sum_v DOUBLE PRECISION,"
              + " min_v DOUBLE PRECISION, max_v DOUBLE PRECISION, sumsq_v DOUBLE PRECISION,"
              + " first_v DOUBLE PRECISION, last_v DOUBLE PRECISION, first_ms BIGINT, last_ms BIGINT)");
      if (engine == Engine.POSTGRES) {
        execute(
            c,
            "CREATE INDEX IF NOT EXISTS "
                + db.quote(tableName(table, unit) + "_bucket")
                + " ON "
                + rollup
                + " (bucket)");
      }
      String select =
          finer == null
              ? summary(
                  db,
                  table,
                  unit.millis(),
                  time
                      + " >= "
                      + engine.timeLiteral(start, table.zoned())
                      + " AND "
                      + time
                      + " < "
                      + engine.timeLiteral(end, table.zoned()))
              : "SELECT tag, "
                  + engine.bucket("bucket", unit, 1, java.time.ZoneOffset.UTC)
                  + " AS b, sum(cnt), sum(sum_v), min(min_v), max(max_v), sum(sumsq_v), "
                  + engine.first("first_v", "first_ms")
                  + ", "
                  + engine.last("last_v", "last_ms")
                  + ", min(first_ms), max(last_ms) FROM "
                  + qualified(db, table, tableName(table, finer))
                  + " WHERE bucket >= "
                  + start
                  + " GROUP BY 1, 2";
      execute(c, "DELETE FROM " + rollup + " WHERE bucket >= " + start);
      execute(c, "INSERT INTO " + rollup + " " + select + " ORDER BY 2");
      execute(
          c,
          "DELETE FROM "
              + state
              + " WHERE table_name = "
              + name
              + " AND unit = '"
              + unit.specName()
              + "'");
      execute(
          c,
          "INSERT INTO "
              + state
              + " VALUES ("
              + name
              + ", '"
              + unit.specName()
              + "', "
              + (end - 1)
              + ")");
      finer = unit;
    }
    return new Step(end - 1, end > newest, span);
  }

  /**
   * About {@link #ROWS_PER_STEP} rows of data time, in whole hours: a sparse table is built in one
   * step, a dense one in steps short enough for one transaction each.
   */
  private static long stepSpan(Connection c, Engine engine, String raw, String time)
      throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*), min("
                    + engine.epochMs(time)
                    + "), max("
                    + engine.epochMs(time)
                    + ") FROM "
                    + raw)) {
      rs.next();
      long rows = Math.max(1, rs.getLong(1));
      double perRow = (double) (rs.getLong(3) - rs.getLong(2) + 1) / rows;
      long hour = Unit.HOUR.millis();
      return Math.max(hour, (long) (perRow * ROWS_PER_STEP) / hour * hour);
    }
  }

  private static Long single(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      long v = rs.getLong(1);
      return rs.wasNull() ? null : v;
    }
  }

  /**
   * The raw rows matching {@code where}, summarised per tag and bucket of {@code widthMs} in the
   * shape of a rollup table (tag, bucket, cnt, sum_v, min_v, max_v, sumsq_v, first_v, last_v,
   * first_ms, last_ms).
   */
  static String summary(Database db, TagTable table, long widthMs, String where) {
    Engine engine = Engine.of(db.dialectName());
    String time = db.quote(table.timeColumn());
    String value = db.quote(table.valueColumn());
    String ms = engine.epochMs(time);
    return "SELECT "
        + db.quote(table.tagColumn())
        + " AS tag, "
        + engine.bucket(ms, Unit.SEC, (int) (widthMs / 1000), java.time.ZoneOffset.UTC)
        + " AS bucket, count("
        + value
        + ") AS cnt, sum("
        + value
        + ") AS sum_v, min("
        + value
        + ") AS min_v, max("
        + value
        + ") AS max_v, sum("
        + value
        + " * "
        + value
        + ") AS sumsq_v, "
        + engine.first(value, time)
        + " AS first_v, "
        + engine.last(value, time)
        + " AS last_v, min("
        + ms
        + ") AS first_ms, max("
        + ms
        + ") AS last_ms FROM "
        + db.quoted(table.table())
        + " WHERE "
        + value
        + " IS NOT NULL AND "
        + where
        + " GROUP BY 1, 2";
  }

  private static Long watermark(Connection c, Database db, TagTable table, Unit unit)
      throws SQLException {
    if (!exists(c, db, table, STATE)) {
      return null;
    }
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT max(watermark_ms) FROM "
                    + qualified(db, table, STATE)
                    + " WHERE table_name = '"
                    + table.table().name().replace("'", "''")
                    + "' AND unit = '"
                    + unit.specName()
                    + "'")) {
      rs.next();
      long v = rs.getLong(1);
      return rs.wasNull() ? null : v;
    }
  }

  private static boolean exists(Connection c, Database db, TagTable table, String name)
      throws SQLException {
    try (ResultSet rs =
        c.getMetaData().getTables(table.table().catalog(), table.table().schema(), name, null)) {
      return rs.next();
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
