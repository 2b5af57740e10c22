package dev.sonde.db;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one connection has learnt about SQL texts it ran recently: the guard's verdict, how the
 * result is shaped. Agents retry and dashboards refresh the same queries, so working it out again
 * would only repeat the answer. Bounded: the least recently used text goes first, and long texts
 * are never kept.
 */
final class TextCache<V> {
  static final int MAX_ENTRIES = 512;
  static final int MAX_SQL_CHARS = 4096;

  private final Map<String, V> kept =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  /** Remembers {@code value} for this exact text. */
  void keep(String sql, V value) {
    if (sql != null && sql.length() <= MAX_SQL_CHARS) {
      synchronized (kept) {
        kept.put(sql, value);
      }
    }
  }

  /** What was kept for this exact text, or null: then it must be worked out. */
  V get(String sql) {
    if (sql == null || sql.length() > MAX_SQL_CHARS) {
      return null;
    }
    synchronized (kept) {
      return kept.get(sql);
    }
  }

  /** Drops what was kept for this text: it no longer holds. */
  void forget(String sql) {
    synchronized (kept) {
      kept.remove(sql);
    }
  }

  int size() {
    synchronized (kept) {
      return kept.size();
    }
  }
}
