package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sonde.core.CallerException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class TextCacheTest {
  private final TextCache<String> cache = new TextCache<>();
  private final AtomicInteger guardRuns = new AtomicInteger();

  /** What the caller does: the kept verdict, or the guard's, kept once it accepts. */
  private String check(String sql, Supplier<String> guard) {
    String statement = cache.get(sql);
    if (statement == null) {
      statement = guard.get();
      cache.keep(sql, statement);
    }
    return statement;
  }

  private String accept(String sql) {
    return check(
        sql,
        () -> {
          guardRuns.incrementAndGet();
          return sql.strip();
        });
  }

  @Test
  void anAcceptedTextIsCheckedOnceAndAnsweredTheSameAfterwards() {
    assertEquals("SELECT 1", accept(" SELECT 1 "));
    assertEquals("SELECT 1", accept(" SELECT 1 "));
    assertEquals(1, guardRuns.get());
    accept("SELECT 1"); // another text, even if equivalent, is checked on its own
    assertEquals(2, guardRuns.get());
  }

  @Test
  void aRefusalIsNeverRemembered() {
    for (int i = 0; i < 3; i++) {
      CallerException refused =
          assertThrows(
              CallerException.class,
              () ->
                  check(
                      "DROP TABLE t",
                      () -> {
                        guardRuns.incrementAndGet();
                        throw new CallerException("rejected: DROP");
                      }));
      assertEquals("rejected: DROP", refused.getMessage());
    }
    assertEquals(3, guardRuns.get());
    assertEquals(0, cache.size());
  }

  @Test
  void theCacheStaysBoundedAndForgetsTheLeastRecentlyUsedText() {
    accept("SELECT 0");
    for (int i = 1; i <= TextCache.MAX_ENTRIES + 10; i++) {
      accept("SELECT " + i);
      accept("SELECT 0"); // kept in use, so never the eldest
    }
    assertEquals(TextCache.MAX_ENTRIES, cache.size());
    int before = guardRuns.get();
    accept("SELECT 0");
    assertEquals(before, guardRuns.get());
    accept("SELECT 1"); // long evicted: checked again
    assertEquals(before + 1, guardRuns.get());
  }

  @Test
  void longTextsAreCheckedEveryTime() {
    String longSql = "SELECT '" + "x".repeat(TextCache.MAX_SQL_CHARS) + "'";
    accept(longSql);
    accept(longSql);
    assertEquals(2, guardRuns.get());
    assertEquals(0, cache.size());
  }

  @Test
  void aForgottenTextIsWorkedOutAgain() {
    accept("SELECT 1");
    cache.forget("SELECT 1");
    accept("SELECT 1");
    assertEquals(2, guardRuns.get());
    cache.forget("never kept"); // nothing to drop is no error
    assertEquals(1, cache.size());
  }
}
