package dev.sonde.db.guard;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The read SQL texts one connection's guard has recently accepted. Agents retry and dashboards
 * refresh the same queries, and acceptance depends only on the text and the connection's fixed
 * settings, so parsing the text again would only repeat the answer. Refusals are not kept: they are
 * rare on a hot path, and one caused by a passing failure (the engine's parser unreachable) must
 * not outlive it. Bounded: the least recently used text goes first, and long texts are never kept.
 */
public final class VerdictCache {
  static final int MAX_ENTRIES = 512;
  static final int MAX_SQL_CHARS = 4096;

  private final Map<String, String> accepted =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  /** Remembers that the guard accepted {@code sql} as {@code statement}. */
  public void keep(String sql, String statement) {
    if (sql != null && sql.length() <= MAX_SQL_CHARS) {
      synchronized (accepted) {
        accepted.put(sql, statement);
      }
    }
  }

  /** The statement accepted for this exact text recently, or null: then the guard must run. */
  public String accepted(String sql) {
    if (sql == null || sql.length() > MAX_SQL_CHARS) {
      return null;
    }
    synchronized (accepted) {
      return accepted.get(sql);
    }
  }

  int size() {
    synchronized (accepted) {
      return accepted.size();
    }
  }
}
