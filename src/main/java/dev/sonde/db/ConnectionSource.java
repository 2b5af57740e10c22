package dev.sonde.db;

import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where a database's JDBC connections come from; a borrowed connection is closed to give it back.
 */
interface ConnectionSource extends AutoCloseable {
  Connection borrow() throws SQLException;

  /** Pool use for health checks: active, idle, max. */
  JsonObject usage();

  @Override
  void close();
}
