package dev.sonde.db;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.PrepareOptions;
import io.vertx.sqlclient.PreparedStatement;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.desc.ColumnDescriptor;
import io.vertx.sqlclient.impl.PreparedStatementBase;
import io.vertx.sqlclient.internal.SqlConnectionBase;
import io.vertx.sqlclient.internal.command.PrepareStatementCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads on PostgreSQL through the reactive client: no worker thread is held while the server works.
 * Each read is {@code BEGIN READ ONLY}, the statement through a cursor that fetches at most the
 * rows wanted, and {@code ROLLBACK}, sent without waiting between them; every connection also opens
 * with {@code default_transaction_read_only} and a statement timeout, so a read that somehow ran
 * outside its transaction would still be read-only and bounded.
 */
final class ReactivePostgres {
  private static final int STATEMENTS_PER_SESSION = 256;

  /** Longer texts are prepared for one use: a shaped text runs longer than the text it reads. */
  private static final int MAX_KEPT_SQL = ReadShape.MAX_KEPT_CHARS;

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
   * One read as {@link Database} asks for it: the guarded {@code statement}, its {@code kept} shape
   * or null, where shapes are kept, how a described read is shaped, at most {@code limit} rows, and
   * the {@code stop} that stops it in the server when the caller cancels or the time is up.
   */
  record Read(
      Database database,
      String statement,
      ReadShape kept,
      TextCache<ReadShape> shapes,
      Function<JsonArray, ReadShape> shaper,
      int limit,
      ValueRenderer renderer,
      StatementStop stop,
      String setRole) {
    /**
     * What the read's transaction starts with: read-only, and the account's role when it has one.
     */
    String begin() {
      return setRole == null ? "BEGIN READ ONLY" : "BEGIN READ ONLY; " + setRole;
    }
  }

  /**
   * Runs {@code call}: sent as its kept shape, so long values are cut by the server; without one,
   * the statement is prepared first, which has the server describe its columns (Parse and Describe:
   * one round trip, no planning), and shaped: with nothing to cut it is read through that
   * statement, otherwise read shaped, once, its rows limited in the text. A statement this
   * connection has prepared before costs one round trip: begin, fetch and rollback go together.
   */
  Future<Fetched> fetch(Read call, Call lifecycle) {
    return pool.withConnection(
        connection -> {
          PgConnection pg = PgConnection.cast(connection);
          call.stop().arm(pg::cancelRequest, lifecycle);
          if (call.stop().stopped()) {
            // a failed future, never a throw: the pool takes its connection back only then
            call.stop().disarm();
            return Future.failedFuture(call.stop().reason());
          }
          if (call.kept() != null) {
            return read(call, pg, call.kept(), begin(pg, call), null);
          }
          // described as it is prepared, inside the read's own transaction, sent with its BEGIN
          Future<?> begun = begin(pg, call);
          return prepareDescribed(connection, call.statement())
              .transform(
                  prepared -> {
                    if (prepared.failed()) {
                      // the server's own words, from the statement as written, afresh
                      return rollback(pg).transform(r -> readAsWritten(call, pg));
                    }
                    Described described = prepared.result();
                    ReadShape shape;
                    try {
                      shape = call.shaper().apply(columns(described.columns()));
                    } catch (RuntimeException e) {
                      // never back to the pool inside the transaction just begun
                      described.statement().close();
                      call.stop().disarm();
                      return rollback(pg).transform(r -> Future.failedFuture(e));
                    }
                    if (shape.cuts()) {
                      // a long text column: read shaped, once; the statement is not needed
                      described.statement().close();
                      return read(call, pg, shape, begun, null);
                    }
                    // nothing to cut: read through the statement just prepared, as written
                    return read(call, pg, shape, begun, described.statement());
                  });
        });
  }

  /** A statement prepared on the server session, with the columns the server described for it. */
  private record Described(PreparedStatement statement, List<ColumnDescriptor> columns) {}

  /**
   * Prepares {@code sql} as the reactive client's own {@code prepare} does, keeping the columns the
   * server described for it, which its public API does not hand out before a read. Built on the
   * client's internal command API, so an upgrade of vertx-sql-client that changes it fails to
   * compile here rather than misbehaving.
   */
  private static Future<Described> prepareDescribed(SqlConnection connection, String sql) {
    SqlConnectionBase<?> base = (SqlConnectionBase<?>) connection;
    ContextInternal context = (ContextInternal) Vertx.currentContext();
    PromiseInternal<io.vertx.sqlclient.internal.PreparedStatement> promise = context.promise();
    base.schedule(new PrepareStatementCommand(sql, new PrepareOptions(), true), promise);
    return promise
        .future()
        .map(
            ps ->
                new Described(
                    PreparedStatementBase.create(base.unwrap(), context, ps, true),
                    ps.rowDesc().columnDescriptor()));
  }

  private static Future<?> begin(SqlConnection connection, Read call) {
    return connection.query(call.begin()).execute();
  }

  private Future<Fetched> readAsWritten(Read call, PgConnection connection) {
    return read(
        call, connection, ReadShape.asWritten(call.statement()), begin(connection, call), null);
  }

  /**
   * Reads {@code call} as {@code shape} says, in the transaction {@code begin} opened: through
   * {@code described} when the statement was just prepared to be described, else through the
   * session's prepared statement for the shape's text, or once, limited in the text, when the shape
   * was just made; {@code shape} is kept for later when it may be and the result still fits it.
   */
  private Future<Fetched> read(
      Read call,
      PgConnection connection,
      ReadShape shape,
      Future<?> begin,
      PreparedStatement described) {
    String statement = call.statement();
    StatementStop stop = call.stop();
    PreparedStatements prepared = preparedOn(connection);
    boolean wasKept = shape == call.kept();
    // the text a described statement reads is the statement as written
    String text = described != null ? statement : shape.text();
    // just described and shaped: read once, its rows limited in the text, with no statement to
    // prepare first; prepared from its next call on
    boolean once = !wasKept && described == null && !text.equals(statement);
    // a described statement stays on the session only when its text is the one sent next time
    boolean describedKept = described != null && shape.text().equals(statement);
    if (describedKept) {
      prepared.keep(statement, described);
    }
    PreparedStatement known = described != null ? described : once ? null : prepared.get(text);
    Future<PreparedStatement> ready =
        once || known != null ? Future.succeededFuture(known) : connection.prepare(text);
    return ready.transform(
        ps -> {
          Future<RowSet<Row>> read =
              ps.failed()
                  ? Future.failedFuture(ps.cause())
                  : stop.stopped()
                      ? Future.failedFuture(stop.reason())
                      : once
                          ? connection.preparedQuery(text + "\nLIMIT " + call.limit()).execute()
                          : ps.result().cursor().read(call.limit());
          if (described != null && !describedKept) {
            // queued behind the read: the rows come first
            described.close();
          }
          if (ps.succeeded() && ps.result() != null && known == null) {
            prepared.keep(text, ps.result());
          }
          // queued behind the read, so it needs no round trip of its own
          Future<Void> rolledBack = rollback(connection);
          return Future.all(begin, read)
              .transform(
                  done -> {
                    // the engine would not read this text shaped (FOR UPDATE beside a UNION, say):
                    // as written, in a transaction afresh, so the caller hears the engine's words
                    if (once && done.failed() && !stop.stopped()) {
                      return rolledBack.transform(r -> readAsWritten(call, connection));
                    }
                    stop.disarm();
                    if (done.failed() && ps.succeeded() && ps.result() != null) {
                      // it may be what failed (a table changed under it): prepare it anew
                      prepared.forget(text);
                    }
                    boolean changed = wasKept && changedColumns(done.cause());
                    if (changed) {
                      call.shapes().forget(statement);
                    }
                    return rolledBack.transform(
                        r ->
                            done.failed()
                                ? Future.failedFuture(
                                    changed || stale(done.cause(), known)
                                        ? new Database.StalePlan(failure(done.cause(), stop))
                                        : failure(done.cause(), stop))
                                : read.result().columnDescriptors() == null
                                    ? Future.failedFuture(call.database().noResultSet())
                                    : rendering(read.result(), call.renderer(), shape)
                                        .map(
                                            fetched ->
                                                shape.settle(call.shapes(), statement, fetched)));
                  });
        });
  }

  /** A kept shape's check failed in the server: the read's columns changed since it was built. */
  private static boolean changedColumns(Throwable cause) {
    return cause instanceof PgException pg
        && (PostgresDialect.changedColumns(pg.getSqlState())
            || PostgresDialect.stalePlan(pg.getSqlState(), pg.getRoutine()));
  }

  /** The columns as the answer names them: label and type as PostgreSQL's JDBC driver does. */
  private static JsonArray columns(List<ColumnDescriptor> descriptors) {
    List<String> names = new ArrayList<>(descriptors.size());
    List<String> types = new ArrayList<>(descriptors.size());
    for (ColumnDescriptor column : descriptors) {
      names.add(column.name());
      types.add(typeName(column));
    }
    return Fetched.columns(names, types);
  }

  private static Future<Fetched> rendering(
      RowSet<Row> rows, ValueRenderer renderer, ReadShape shape) {
    try {
      return Future.succeededFuture(rendered(rows, renderer, shape));
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
        return;
      }
      PreparedStatement replaced = bySql.put(sql, statement);
      if (replaced != null && replaced != statement) {
        replaced.close();
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
        && PostgresDialect.stalePlan(pg.getSqlState(), pg.getRoutine());
  }

  /** What the caller hears: why the statement was stopped, or the server's error in its words. */
  private CallerException failure(Throwable cause, StatementStop stop) {
    CallerException stopped = stop.reason();
    if (stopped != null || cause instanceof CallerException) {
      return stopped != null ? stopped : (CallerException) cause;
    }
    String message =
        cause instanceof PgException pg
            ? PostgresDialect.withHint(pg.getSeverity() + ": " + pg.getErrorMessage(), pg.getHint())
            : Database.firstLine(cause.getMessage());
    return new CallerException(name + ": " + message);
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

  private static Fetched rendered(RowSet<Row> rows, ValueRenderer renderer, ReadShape shape) {
    List<ColumnDescriptor> descriptors = rows.columnDescriptors();
    List<String> types = new ArrayList<>(descriptors.size());
    List<String> names = new ArrayList<>(descriptors.size());
    for (ColumnDescriptor column : descriptors) {
      if (UNDECODED.contains(typeName(column))) {
        throw new NeedsJdbc(typeName(column));
      }
      types.add(typeName(column));
      names.add(column.name());
    }
    List<JsonArray> out = new ArrayList<>(rows.size());
    for (Row row : rows) {
      JsonArray values = new JsonArray(new ArrayList<>(descriptors.size()));
      for (int i = 0; i < descriptors.size(); i++) {
        values.add(renderer.render(row.getValue(i)));
      }
      out.add(values);
    }
    return shape.fetched(names, types, out);
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
