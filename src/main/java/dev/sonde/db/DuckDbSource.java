package dev.sonde.db;

import io.vertx.core.json.JsonObject;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBDriver;

/**
 * One embedded DuckDB instance for the whole process (a file can be opened by one instance only);
 * each borrower gets a {@code duplicate()} of the root connection, at most {@code max} at once.
 */
final class DuckDbSource implements ConnectionSource {
  private final DuckDBConnection root;
  private final Semaphore permits;
  private final int max;

  DuckDbSource(String url, int max) throws SQLException {
    Properties properties = new Properties();
    // stream results: a SELECT * over millions of rows is read row by row, never materialised
    properties.setProperty(DuckDBDriver.JDBC_STREAM_RESULTS, "true");
    this.root = (DuckDBConnection) DriverManager.getConnection(url, properties);
    this.permits = new Semaphore(max);
    this.max = max;
  }

  /** The root connection, for setting up the instance before it serves reads. */
  Connection root() {
    return root;
  }

  @Override
  public Connection borrow() throws SQLException {
    try {
      permits.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for a DuckDB connection");
    }
    Connection duplicate;
    try {
      duplicate = root.duplicate();
    } catch (SQLException | RuntimeException e) {
      permits.release();
      throw e;
    }
    return releasingOnClose(duplicate);
  }

  private Connection releasingOnClose(Connection connection) {
    boolean[] closed = {false};
    InvocationHandler handler =
        (proxy, method, args) -> {
          if ("close".equals(method.getName()) && method.getParameterCount() == 0) {
            synchronized (closed) {
              if (!closed[0]) {
                closed[0] = true;
                try {
                  connection.close();
                } finally {
                  permits.release();
                }
              }
            }
            return null;
          }
          try {
            return method.invoke(connection, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
  }

  @Override
  public JsonObject usage() {
    return new JsonObject()
        .put("active", max - permits.availablePermits())
        .put("idle", permits.availablePermits())
        .put("max", max);
  }

  @Override
  public void close() {
    try {
      root.close();
    } catch (SQLException e) {
      // closing at shutdown: nothing left to do with the error
    }
  }
}
