package dev.sonde.timeseries;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sonde.support.Closing;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.TestPostgres;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The demo's GOLD and DRIVING tag tables, generated in DuckDB and copied row for row into
 * PostgreSQL: the same chart specs draw the same buckets on both engines.
 */
class DemoTagTablesOnPostgresTest {
  static TestPostgres postgres;
  static InProcessSonde sonde;
  static ToolCalls tools;

  @BeforeAll
  static void start() throws Exception {
    Path duck = TestPostgres.demoDuckDb();
    postgres = TestPostgres.start();
    String columns =
        "\"NAME\" VARCHAR NOT NULL, \"TIME\" TIMESTAMP NOT NULL, \"VALUE\" DOUBLE PRECISION NOT NULL";
    String pg =
        postgres.createDatabaseFrom(
            duck, "demo_tags", Map.of("\"GOLD\"", columns, "\"DRIVING\"", columns));
    sonde =
        new InProcessSonde(
            Map.of(
                "databases.connections.duck.type", "duckdb",
                "databases.connections.duck.path", duck.toString(),
                "databases.connections.pg.type", "postgres",
                "databases.connections.pg.url", pg,
                "databases.connections.pg.rollups", "true"));
    tools = ToolCalls.over(sonde.port());
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.inOrder(sonde, postgres);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"table\": \"GOLD\", \"kind\": \"ohlc\", \"tag\": \"close\", \"rollup\": \"week\", \"timeRange\": {\"start\": \"last-180d\"}}",
        "{\"table\": \"GOLD\", \"tag\": \"close\", \"rollup\": \"일별\"}",
        "{\"table\": \"GOLD\", \"tags\": [\"high\", \"low\"], \"rollup\": \"month\", \"metrics\": [{\"agg\": \"max\"}]}",
        "{\"table\": \"DRIVING\", \"tag\": \"speed\", \"rollup\": \"10s\"}",
        "{\"table\": \"DRIVING\", \"tag\": \"rpm\", \"rollup\": \"1分\", \"metrics\": [{\"agg\": \"max\"}, {\"agg\": \"count\"}]}",
        "{\"table\": \"DRIVING\", \"tags\": [\"speed\", \"rpm\"], \"rollup\": \"hour\", \"timeRange\": {\"start\": \"last-3d\", \"end\": \"last\"}}"
      })
  void theSameSpecDrawsTheSameOnDuckDbAndPostgres(String spec) {
    // a bare offset is read as the region that has it: +09:00 draws what Seoul draws
    assertEquals(summary("pg", spec, "Asia/Seoul"), summary("pg", spec, "+09:00"));
    for (String zone : List.of("UTC", "Asia/Seoul", "America/New_York", "-05:00")) {
      JsonArray duck = summary("duck", spec, zone);
      JsonArray pg = summary("pg", spec, zone);
      assertEquals(duck.size(), pg.size());
      for (int i = 0; i < duck.size(); i++) {
        JsonObject d = duck.getJsonObject(i);
        JsonObject p = pg.getJsonObject(i);
        for (String key : List.of("name", "points", "first_time", "last_time")) {
          assertEquals(d.getValue(key), p.getValue(key), key + " in " + zone + " for " + spec);
        }
        for (String key : List.of("min", "max", "last")) {
          assertEquals(
              d.getDouble(key),
              p.getDouble(key),
              1e-6 * Math.max(1, Math.abs(d.getDouble(key))),
              key);
        }
      }
    }
  }

  static JsonArray summary(String connection, String spec, String zone) {
    return tools
        .ok(
            "compile_chart_from_spec",
            new JsonObject()
                .put("spec", new JsonObject(spec))
                .put("connection", connection)
                .put("timezone", zone))
        .getJsonObject("summary")
        .getJsonArray("series");
  }
}
