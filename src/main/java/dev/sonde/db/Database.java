package dev.sonde.db;

import dev.sonde.config.SondeConfig.ConnectionConfig;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

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

  Database(
      String name,
      ConnectionConfig config,
      Dialect dialect,
      ConnectionSource source,
      WorkerExecutor workers) {
    this.name = name;
    this.config = config;
    this.dialect = dialect;
    this.source = source;
    this.workers = workers;
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

  /** Every table and view the connection's user can see. */
  public Future<List<TableRef>> tables() {
    return read(dialect::tables);
  }

  /** The table a user's name means (see {@link TableResolver}). */
  public Future<TableRef> resolve(String tableName) {
    return read(c -> TableResolver.resolve(tableName, dialect.tables(c), dialect.searchPath(c)));
  }

  public Future<JsonObject> describe(String tableName) {
    return read(
        c ->
            dialect.describe(
                c, TableResolver.resolve(tableName, dialect.tables(c), dialect.searchPath(c))));
  }

  public Future<JsonArray> indexes(String tableName) {
    return read(
        c ->
            dialect.indexes(
                c, TableResolver.resolve(tableName, dialect.tables(c), dialect.searchPath(c))));
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
