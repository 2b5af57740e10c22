package dev.sonde.support;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Copies Chinook from the shared SQLite file into another engine over JDBC: tables with their
 * primary and foreign keys, in dependency order, then their rows.
 */
public final class ChinookCopy {
  /** Parents before children, so every foreign key can be declared and checked. */
  public static final List<String> TABLES =
      List.of(
          "Artist",
          "Genre",
          "MediaType",
          "Album",
          "Track",
          "Employee",
          "Customer",
          "Invoice",
          "InvoiceLine",
          "Playlist",
          "PlaylistTrack");

  private ChinookCopy() {}

  public static void into(String targetUrl) throws SQLException {
    try (Connection source = DriverManager.getConnection("jdbc:sqlite:" + DatabaseSonde.CHINOOK);
        Connection target = DriverManager.getConnection(targetUrl)) {
      DatabaseMetaData md = source.getMetaData();
      for (String table : TABLES) {
        try (Statement st = target.createStatement()) {
          st.execute(createTable(md, table));
        }
        copyRows(source, target, table);
      }
    }
  }

  private static String createTable(DatabaseMetaData md, String table) throws SQLException {
    List<String> parts = new ArrayList<>();
    try (ResultSet rs = md.getColumns(null, null, table, "%")) {
      while (rs.next()) {
        parts.add(
            rs.getString("COLUMN_NAME")
                + " "
                + type(
                    rs.getString("TYPE_NAME"),
                    rs.getInt("COLUMN_SIZE"),
                    rs.getInt("DECIMAL_DIGITS"))
                + ("NO".equals(rs.getString("IS_NULLABLE")) ? " NOT NULL" : ""));
      }
    }
    java.util.TreeMap<Integer, String> key = new java.util.TreeMap<>();
    try (ResultSet rs = md.getPrimaryKeys(null, null, table)) {
      while (rs.next()) {
        key.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
      }
    }
    parts.add("PRIMARY KEY (" + String.join(", ", key.values()) + ")");
    try (ResultSet rs = md.getImportedKeys(null, null, table)) {
      while (rs.next()) {
        parts.add(
            "FOREIGN KEY ("
                + rs.getString("FKCOLUMN_NAME")
                + ") REFERENCES "
                + rs.getString("PKTABLE_NAME")
                + " ("
                + rs.getString("PKCOLUMN_NAME")
                + ")");
      }
    }
    return "CREATE TABLE " + table + " (" + String.join(", ", parts) + ")";
  }

  /** The declared SQLite type in the target's words; decimals keep their precision and scale. */
  private static String type(String sqliteType, int size, int digits) {
    String t = sqliteType.toUpperCase(Locale.ROOT);
    if (t.startsWith("NVARCHAR")) {
      return t.substring(1);
    }
    if (t.startsWith("NUMERIC")) {
      return "DECIMAL(" + (size > 0 ? size : 10) + ", " + (digits > 0 ? digits : 2) + ")";
    }
    return t.equals("DATETIME") ? "TIMESTAMP" : t;
  }

  private static void copyRows(Connection source, Connection target, String table)
      throws SQLException {
    try (Statement read = source.createStatement();
        ResultSet rs = read.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
      ResultSetMetaData md = rs.getMetaData();
      int n = md.getColumnCount();
      String marks = String.join(", ", java.util.Collections.nCopies(n, "?"));
      try (PreparedStatement insert =
          target.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
        while (rs.next()) {
          for (int i = 1; i <= n; i++) {
            insert.setObject(i, rs.getObject(i));
          }
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
  }
}
