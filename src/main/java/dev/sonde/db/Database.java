package dev.sonde.db;

import dev.sonde.config.SondeConfig.ConnectionConfig;
import dev.sonde.db.guard.SqlGuard;
import dev.sonde.db.guard.VerdictCache;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One named connection: its limits, its dialect and its connections. Every read runs on a worker
 * thread inside the engine's read-only mode and is rolled back; an SQL error becomes a {@link
 * DatabaseException} the caller can act on.
 */
public final class Database {
  private final String name;
  private final ConnectionConfig config;
  private final Dialect dialect;
  private final ConnectionSource source;
  private final WorkerExecutor workers;
  private final Vertx vertx;
  private final SqlGuard.Mode guardMode;
  private final VerdictCache acceptedReads = new VerdictCache();

  Database(
      Vertx vertx,
      String name,
      ConnectionConfig config,
      Dialect dialect,
      ConnectionSource source,
      WorkerExecutor workers) {
    this.vertx = vertx;
    this.name = name;
    this.config = config;
    this.dialect = dialect;
    this.source = source;
    this.workers = workers;
    this.guardMode = SqlGuard.Mode.of(config.guard());
  }

  public String name() {
    return name;
  }

  public ConnectionConfig config() {
    return config;
  }

  public String dialectName() {
    return dialect.name();
  }

  <T> Future<T> read(SqlWork<T> work) {
    return workers.executeBlocking(
        () -> {
          try (Connection connection = source.borrow()) {
            dialect.beginRead(connection);
            try {
              return work.run(connection);
            } finally {
              dialect.endRead(connection);
            }
          } catch (SQLException e) {
            throw new DatabaseException(name + ": " + firstLine(e.getMessage()));
          }
        },
        false);
  }

  static String firstLine(String message) {
    if (message == null) {
      return "database error";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /**
   * Runs one guarded read and shapes its result. {@code onCancel} receives the way to stop the
   * running statement, for the caller's cancellation; the connection's timeout stops it too.
   */
  public Future<JsonObject> query(QueryRequest request, Consumer<Runnable> onCancel) {
    int maxRows = Math.max(1, Math.min(request.limit(), config.maxRows()));
    return read(
        c -> {
          String sql = checkRead(request.sql(), c);
          long start = System.nanoTime();
          // prepared, not a plain Statement: DuckDB's JDBC 1.5 hides a plain statement's error text
          try (PreparedStatement statement = c.prepareStatement(sql)) {
            // never ask for more than can be returned: N+1 rows tell whether there were more
            statement.setMaxRows(maxRows + 1);
            statement.setFetchSize(Math.min(maxRows + 1, 1000));
            AtomicBoolean timedOut = new AtomicBoolean();
            AtomicBoolean cancelled = new AtomicBoolean();
            long timer =
                vertx.setTimer(
                    config.queryTimeoutSeconds() * 1000L,
                    id -> {
                      timedOut.set(true);
                      cancelQuietly(statement);
                    });
            onCancel.accept(
                () -> {
                  cancelled.set(true);
                  cancelQuietly(statement);
                });
            try (ResultSet rs = statement.executeQuery()) {
              return shape(rs, request, maxRows, start);
            } catch (SQLException e) {
              if (timedOut.get()) {
                throw new DatabaseException(
                    "the query ran longer than "
                        + config.queryTimeoutSeconds()
                        + " s and was stopped; filter, aggregate or add a LIMIT to make it cheaper");
              }
              if (cancelled.get()) {
                throw new DatabaseException(
                    "the query was cancelled after "
                        + (System.nanoTime() - start) / 1_000_000_000
                        + " s");
              }
              throw e;
            } finally {
              vertx.cancelTimer(timer);
            }
          }
        });
  }

  /** The one statement {@code sql} may run as a read here, or a refusal saying why not. */
  private String checkRead(String sql, Connection c) {
    return acceptedReads.check(
        sql,
        () ->
            SqlGuard.checkRead(
                sql,
                dialect.guardProfile(),
                guardMode,
                config.maxSqlLength(),
                dialect.engineParser(c)));
  }

  /** The plan of a guarded read as text, capped at the connection's character budget. */
  public Future<JsonObject> explain(String sql, boolean analyze) {
    return read(
        c -> {
          String statement = checkRead(sql, c);
          StringBuilder plan = new StringBuilder();
          try (PreparedStatement st = c.prepareStatement(dialect.explain(statement, analyze));
              ResultSet rs = st.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
              for (int i = 1; i <= columns; i++) {
                String part = rs.getString(i);
                if (part != null && !(columns > 1 && i == 1 && part.endsWith("_plan"))) {
                  plan.append(part).append(i < columns ? "  " : "");
                }
              }
              plan.append('\n');
            }
          }
          boolean truncated = plan.length() > config.maxChars();
          return new JsonObject()
              .put(
                  "plan",
                  truncated
                      ? plan.substring(0, config.maxChars()) + ResultShaper.ELLIPSIS
                      : plan.toString())
              .put("analyze", analyze)
              .put("truncated", truncated);
        });
  }

  /**
   * Runs one guarded INSERT, UPDATE, DELETE or MERGE in its own transaction: committed when it
   * succeeds, rolled back when it fails. A commit that does not answer in time discards the
   * connection and says the outcome is unknown.
   */
  public Future<JsonObject> write(String sql, Consumer<Runnable> onCancel) {
    if (!config.write()) {
      return Future.failedFuture(
          new DatabaseException(
              "connection '"
                  + name
                  + "' does not allow writes;"
                  + " an operator can set write: true (and readOnly: false) for it"));
    }
    return workers.executeBlocking(
        () -> {
          String statement =
              SqlGuard.checkWrite(sql, dialect.guardProfile(), config.maxSqlLength());
          Connection c = source.borrow();
          boolean discard = false;
          try (Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            onCancel.accept(() -> cancelQuietly(st));
            long timer =
                vertx.setTimer(config.queryTimeoutSeconds() * 1000L, id -> cancelQuietly(st));
            int affected;
            try {
              affected = st.executeUpdate(statement);
            } catch (SQLException e) {
              c.rollback();
              throw new DatabaseException(
                  name + ": " + firstLine(e.getMessage()) + " (nothing was changed)");
            } finally {
              vertx.cancelTimer(timer);
            }
            try {
              commitWithin(c, config.queryTimeoutSeconds());
            } catch (SQLException e) {
              discard = true;
              throw new DatabaseException(
                  name
                      + ": the commit did not complete ("
                      + firstLine(e.getMessage())
                      + "); whether the change was applied is unknown: check before retrying");
            }
            return new JsonObject().put("affected_rows", affected).put("committed", true);
          } finally {
            if (discard) {
              abandon(c);
            } else {
              c.setAutoCommit(true);
              c.close();
            }
          }
        },
        false);
  }

  private void commitWithin(Connection c, int seconds) throws SQLException {
    long timer = vertx.setTimer(seconds * 1000L, id -> abandon(c));
    try {
      c.commit();
    } finally {
      vertx.cancelTimer(timer);
    }
  }

  /** Closes a connection whose state is unknown, so the pool never hands it out again. */
  private static void abandon(Connection c) {
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // already gone
      }
    }
  }

  private static void cancelQuietly(Statement statement) {
    try {
      statement.cancel();
    } catch (SQLException | RuntimeException e) {
      // already finished or closed: nothing to stop
    }
  }

  private JsonObject shape(ResultSet rs, QueryRequest request, int maxRows, long start)
      throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int count = md.getColumnCount();
    JsonArray columns = new JsonArray();
    int[] types = new int[count];
    for (int i = 1; i <= count; i++) {
      types[i - 1] = md.getColumnType(i);
      columns.add(
          new JsonObject().put("name", md.getColumnLabel(i)).put("type", md.getColumnTypeName(i)));
    }
    ValueRenderer renderer = new ValueRenderer(request.timeFormat(), request.zone());
    List<JsonArray> fetched = new ArrayList<>();
    while (fetched.size() <= maxRows && rs.next()) {
      JsonArray row = new JsonArray();
      for (int i = 1; i <= count; i++) {
        row.add(renderer.render(rs, i, types[i - 1]));
      }
      fetched.add(row);
    }
    ResultShaper.Shaped shaped = ResultShaper.shape(fetched, maxRows, config.maxChars());
    JsonObject result = new JsonObject().put("columns", columns);
    if (request.csv()) {
      result.put("csv", Csv.render(columns, shaped.rows()));
    } else {
      result.put("rows", new JsonArray(new ArrayList<>(shaped.rows())));
    }
    result
        .put("row_count", shaped.rows().size())
        .put("truncated", shaped.truncated())
        .put("elapsed_ms", (System.nanoTime() - start) / 1_000_000);
    if (shaped.truncated()) {
      result.put(
          "note",
          "Only the first "
              + shaped.rows().size()
              + " rows are shown (this connection returns at most "
              + config.maxRows()
              + " rows and "
              + config.maxChars()
              + " characters). Aggregate (GROUP BY, COUNT, SUM)"
              + " or filter (WHERE) to see what you need instead of more raw rows.");
    }
    return result;
  }

  /** Every table and view the connection's user can see. */
  public Future<List<TableRef>> tables() {
    return read(dialect::tables);
  }

  /** What one of several names resolved to: the table, or why it could not be found. */
  public record Resolved(String name, TableRef table, String error) {}

  /** Each name as {@link TableResolver} resolves it, against one reading of the catalog. */
  public Future<List<Resolved>> resolveAll(List<String> tableNames) {
    return read(
        c -> {
          List<TableRef> tables = dialect.tables(c);
          List<String> searchPath = dialect.searchPath(c);
          List<Resolved> out = new ArrayList<>();
          for (String name : tableNames) {
            try {
              out.add(new Resolved(name, TableResolver.resolve(name, tables, searchPath), null));
            } catch (DatabaseException e) {
              out.add(new Resolved(name, null, e.getMessage()));
            }
          }
          return out;
        });
  }

  private TableRef resolve(Connection c, String tableName) throws SQLException {
    return TableResolver.resolve(tableName, dialect.tables(c), dialect.searchPath(c));
  }

  public Future<JsonObject> describe(String tableName) {
    return read(c -> dialect.describe(c, resolve(c, tableName)));
  }

  public Future<JsonArray> indexes(String tableName) {
    return read(c -> dialect.indexes(c, resolve(c, tableName)));
  }

  public Future<JsonArray> sequences() {
    return read(dialect::sequences);
  }

  /** Inheritance and partitions around a table, or all of them when {@code tableName} is null. */
  public Future<JsonObject> hierarchy(String tableName) {
    return read(c -> dialect.hierarchy(c, tableName == null ? null : resolve(c, tableName)));
  }

  public Future<Long> rowCount(TableRef table) {
    return read(c -> dialect.rowCount(c, table));
  }

  /**
   * ok, server version, round-trip milliseconds and pool use; never fails, says what went wrong.
   */
  public Future<JsonObject> health() {
    long start = System.nanoTime();
    return read(dialect::version)
        .transform(
            ar ->
                Future.succeededFuture(
                    ar.succeeded()
                        ? new JsonObject()
                            .put("ok", true)
                            .put("version", ar.result())
                            .put("roundTripMs", (System.nanoTime() - start) / 1_000_000)
                            .put("pool", source.usage())
                        : new JsonObject().put("ok", false).put("error", ar.cause().getMessage())));
  }

  void close() {
    source.close();
  }
}
