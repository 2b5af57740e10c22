package dev.sonde.db;

import java.sql.Connection;
import java.sql.SQLException;

/** Work done with a borrowed connection, on a worker thread. */
@FunctionalInterface
public interface SqlWork<T> {
  T run(Connection connection) throws SQLException;
}
