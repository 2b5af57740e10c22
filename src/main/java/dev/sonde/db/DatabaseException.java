package dev.sonde.db;

/** A database problem the caller can fix: an unknown connection or table, an SQL error. */
public final class DatabaseException extends RuntimeException {
  public DatabaseException(String message) {
    super(message, null, false, false);
  }
}
