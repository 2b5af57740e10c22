package dev.sonde.db;

import java.sql.Connection;
import java.sql.SQLException;

/** Work done with a borrowed connection, on a worker thread. */
@FunctionalInterface
interface SqlWork<T> {
  T run(Connection connection) throws SQLException;
}
