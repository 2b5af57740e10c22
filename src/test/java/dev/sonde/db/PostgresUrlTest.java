package dev.sonde.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.pgclient.PgConnectOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostgresUrlTest {
  @Test
  void readsUserHostPortAndDatabase() {
    PostgresUrl url = PostgresUrl.parse("postgresql://analyst@db.internal:6543/warehouse", "", "");
    assertEquals("db.internal", url.host());
    assertEquals(6543, url.port());
    assertEquals("warehouse", url.database());
    assertEquals("analyst", url.user());
    assertEquals("", url.password());
    assertEquals("jdbc:postgresql://db.internal:6543/warehouse?sslmode=disable", url.jdbcUrl());
  }

  @Test
  void takesTheJdbcFormAndItsParameters() {
    PostgresUrl url =
        PostgresUrl.parse(
            "jdbc:postgresql://localhost/chinook?user=postgres&password=s%40cret", "", "");
    assertEquals(5432, url.port());
    assertEquals("postgres", url.user());
    assertEquals("s@cret", url.password());
  }

  @Test
  void configuredCredentialsWinOverTheUrl() {
    PostgresUrl url = PostgresUrl.parse("postgresql://u:p@h/d", "reader", "from-env");
    assertEquals("reader", url.user());
    assertEquals("from-env", url.password());
  }

  @Test
  void theReactiveOptionsCarryTheStartupSettings() {
    PgConnectOptions options =
        PostgresUrl.parse("postgresql://u@h:1/d?sslmode=require", "", "")
            .reactive(Map.of("statement_timeout", "32000"));
    assertEquals("32000", options.getProperties().get("statement_timeout"));
    assertEquals("sonde", options.getProperties().get("application_name"));
    assertEquals("u", options.getUser());
    assertEquals("REQUIRE", options.getSslMode().name());
  }

  @Test
  void aBadUrlSaysWhatToChangeWithoutShowingItsPassword() {
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> PostgresUrl.parse("postgresql://u:hunter2@h/d?connectTimeout=2", "", ""));
    assertTrue(unknown.getMessage().contains("parameter 'connectTimeout' is not supported"));
    assertFalse(unknown.getMessage().contains("hunter2"), unknown.getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> PostgresUrl.parse("mysql://h/d", "", ""))
            .getMessage()
            .contains("must start with postgresql://"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> PostgresUrl.parse("postgresql://h/d?sslmode=sometimes", "", ""))
            .getMessage()
            .contains("sslmode 'sometimes'"));
  }

  @Test
  void itsTextNeverShowsThePassword() {
    assertFalse(
        PostgresUrl.parse("postgresql://u:hunter2@h/d", "", "").toString().contains("hunter2"));
  }
}
