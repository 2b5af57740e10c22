package dev.sonde.db;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.PreparedStatement;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.desc.ColumnDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads on PostgreSQL through the reactive client: no worker thread is held while the server works.
 * Each read is {@code BEGIN READ ONLY}, the statement through a cursor that fetches at most the
 * rows wanted, and {@code ROLLBACK}, sent without waiting between them; every connection also opens
 * with {@code default_transaction_read_only} and a statement timeout, so a read that somehow ran
 * outside its transaction would still be read-only and bounded.
 */
final class ReactivePostgres {
  private static final int STATEMENTS_PER_SESSION = 256;
  private static final int MAX_KEPT_SQL = 4096;

  private final String name;
  private final Pool pool;
  private final int max;

  /** Prepared statements per server session; sessions the pool has dropped age out. */
  private final Map<Long, PreparedStatements> sessions;

  ReactivePostgres(Vertx vertx, String name, PostgresUrl url, int max, int timeoutSeconds) {
    this.name = name;
    this.max = max;
    this.sessions =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, PreparedStatements> eldest) {
            return size() > 2 * max;
          }
        };
    this.pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(max))
            .connectingTo(
                url.reactive(
                    Map.of(
                        "default_transaction_read_only",
                        "on",
                        // the guard reads '\' as the standard says, whatever the server's default
                        "standard_conforming_strings",
                        "on",
                        "statement_timeout",
                        String.valueOf(Dialect.serverTimeoutMillis(timeoutSeconds)))))
            .using(vertx)
            .build();
  }

  /**
   * Runs the guarded {@code statement} and fetches at most {@code limit} rows; {@code stop} stops
   * it in the server (a cancel request) when the caller cancels or the time is up. A statement this
   * connection has prepared before costs one round trip: begin, fetch and rollback go together.
   */
  Future<Fetched> fetch(
      Database database,
      String statement,
      int limit,
      ValueRenderer renderer,
      StatementStop stop,
      Consumer<Runnable> onCancel) {
    return pool.withConnection(
        connection -> {
          PgConnection pg = PgConnection.cast(connection);
          PreparedStatements prepared = preparedOn(pg);
          Future<?> begin = connection.query("BEGIN READ ONLY").execute();
          stop.arm(pg::cancelRequest, onCancel);
          PreparedStatement known = prepared.get(statement);
          Future<PreparedStatement> ready =
              known != null ? Future.succeededFuture(known) : connection.prepare(statement);
          return ready.transform(
              ps -> {
                Future<RowSet<Row>> read =
                    ps.failed()
                        ? Future.failedFuture(ps.cause())
                        : stop.stopped()
                            ? Future.failedFuture(stop.reason())
                            : ps.result().cursor().read(limit);
                if (ps.succeeded() && known == null) {
                  prepared.keep(statement, ps.result());
                }
                // queued behind the read, so it needs no round trip of its own
                Future<Void> rolledBack = rollback(connection);
                return Future.all(begin, read)
                    .transform(
                        done -> {
                          stop.disarm();
                          if (done.failed() && ps.succeeded()) {
                            // it may be what failed (a table changed under it): prepare it anew
                            prepared.forget(statement);
                          }
                          return rolledBack.transform(
                              r ->
                                  done.failed()
                                      ? Future.failedFuture(
                                          stale(done.cause(), known)
                                              ? new Database.StalePlan(failure(done.cause(), stop))
                                              : failure(done.cause(), stop))
                                      : read.result().columnDescriptors() == null
                                          ? Future.failedFuture(database.noResultSet())
                                          : rendering(read.result(), renderer));
                        });
              });
        });
  }

  private static Future<Fetched> rendering(RowSet<Row> rows, ValueRenderer renderer) {
    try {
      return Future.succeededFuture(rendered(rows, renderer));
    } catch (NeedsJdbc e) {
      return Future.failedFuture(e);
    }
  }

  /** The statements prepared on the server session behind {@code connection}. */
  private PreparedStatements preparedOn(PgConnection connection) {
    long session = ((long) connection.processId() << 32) | (connection.secretKey() & 0xffffffffL);
    synchronized (sessions) {
      return sessions.computeIfAbsent(session, s -> new PreparedStatements());
    }
  }

  /**
   * One server session's prepared statements, the least recently used closed past a bound; texts
   * too long to keep are closed after their one use.
   */
  private static final class PreparedStatements {
    private final Map<String, PreparedStatement> bySql =
        new LinkedHashMap<>(64, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() > STATEMENTS_PER_SESSION) {
              eldest.getValue().close();
              return true;
            }
            return false;
          }
        };

    synchronized PreparedStatement get(String sql) {
      return bySql.get(sql);
    }

    synchronized void keep(String sql, PreparedStatement statement) {
      if (sql.length() > MAX_KEPT_SQL) {
        statement.close();
      } else {
        bySql.put(sql, statement);
      }
    }

    synchronized void forget(String sql) {
      PreparedStatement statement = bySql.remove(sql);
      if (statement != null) {
        statement.close();
      }
    }
  }

  private static Future<Void> rollback(SqlConnection connection) {
    return connection.query("ROLLBACK").execute().mapEmpty();
  }

  /** A statement this session had prepared that the server no longer accepts as it was. */
  private static boolean stale(Throwable cause, PreparedStatement known) {
    return known != null
        && cause instanceof PgException pg
        && PostgresDialect.STALE_PLAN.equals(pg.getSqlState());
  }

  /** What the caller hears: why the statement was stopped, or the server's error in its words. */
  private DatabaseException failure(Throwable cause, StatementStop stop) {
    DatabaseException stopped = stop.reason();
    if (stopped != null || cause instanceof DatabaseException) {
      return stopped != null ? stopped : (DatabaseException) cause;
    }
    String message =
        cause instanceof PgException pg
            ? PostgresDialect.withHint(pg.getSeverity() + ": " + pg.getErrorMessage(), pg.getHint())
            : Database.firstLine(cause.getMessage());
    return new DatabaseException(name + ": " + message);
  }

  /**
   * Types the reactive client reads in binary and cannot decode (it hands null for every value): a
   * result with one of them is read through JDBC instead.
   */
  static final Set<String> UNDECODED = Set.of("xml", "_xml", "oid", "_oid");

  /** A result the reactive client could not decode: the read is run again through JDBC. */
  static final class NeedsJdbc extends RuntimeException {
    NeedsJdbc(String type) {
      super("the reactive client cannot decode " + type, null, false, false);
    }
  }

  private static Fetched rendered(RowSet<Row> rows, ValueRenderer renderer) {
    JsonArray columns = new JsonArray();
    List<ColumnDescriptor> descriptors = rows.columnDescriptors();
    for (ColumnDescriptor column : descriptors) {
      if (UNDECODED.contains(typeName(column))) {
        throw new NeedsJdbc(typeName(column));
      }
      columns.add(new JsonObject().put("name", column.name()).put("type", typeName(column)));
    }
    List<JsonArray> out = new ArrayList<>(rows.size());
    for (Row row : rows) {
      JsonArray values = new JsonArray(new ArrayList<>(descriptors.size()));
      for (int i = 0; i < descriptors.size(); i++) {
        values.add(renderer.render(row.getValue(i)));
      }
      out.add(values);
    }
    return new Fetched(columns, out);
  }

  /**
   * The type as PostgreSQL's JDBC driver names it ({@code int4}, {@code _text}), for one answer.
   */
  private static String typeName(ColumnDescriptor column) {
    String name = column.typeName().toLowerCase(Locale.ROOT);
    return name.endsWith("_array") ? "_" + name.substring(0, name.length() - 6) : name;
  }

  JsonObject usage() {
    return new JsonObject().put("reactive", pool.size()).put("reactiveMax", max);
  }

  void close() {
    pool.close();
  }
}
