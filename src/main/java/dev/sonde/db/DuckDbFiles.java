package dev.sonde.db;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * DuckDB files Sonde reads as data of its own (not as a named connection), such as docs indexes.
 */
public final class DuckDbFiles {
  private DuckDbFiles() {}

  /** A read-only connection to the file; a second process may hold it read-only too. */
  public static Connection openReadOnly(Path file) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("duckdb.read_only", "true");
    return DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), properties);
  }
}
