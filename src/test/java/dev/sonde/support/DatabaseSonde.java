package dev.sonde.support;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * One in-process Sonde with real databases, shared by the database tests of a JVM: the generated
 * demo DuckDB (default), Chinook and GeoQuery on SQLite (from ../shared), an H2 database with the
 * same table in two schemas, an in-memory DuckDB with a short timeout and an H2 database that
 * allows writes.
 */
public final class DatabaseSonde {
  public static final Path CHINOOK = Path.of("../shared/datasets/chinook/Chinook_Sqlite.sqlite");
  public static final Path GEOQUERY =
      Path.of("../shared/datasets/geoquery/geography-db.added-in-2020.sqlite");
  private static InProcessSonde instance;
  private static HttpMcpClient client;
  private static long ids = 1000;

  private DatabaseSonde() {}

  public static synchronized InProcessSonde get() {
    if (instance == null) {
      try {
        Path chinook = Files.createTempFile("chinook-", ".sqlite");
        Files.copy(CHINOOK, chinook, StandardCopyOption.REPLACE_EXISTING);
        Path geo = Files.createTempFile("geoquery-", ".sqlite");
        Files.copy(GEOQUERY, geo, StandardCopyOption.REPLACE_EXISTING);
        instance =
            new InProcessSonde(
                Map.ofEntries(
                    Map.entry("data.dir", "target/test-data"),
                    Map.entry("databases.connections.demo.demo", "true"),
                    Map.entry("databases.connections.demo.path", "demo.duckdb"),
                    Map.entry("databases.connections.chinook.type", "jdbc"),
                    Map.entry("databases.connections.chinook.url", "jdbc:sqlite:" + chinook),
                    // the evaluations' gold answers, whole: no character budget cuts them
                    Map.entry("databases.connections.golddemo.path", "demo.duckdb"),
                    Map.entry("databases.connections.golddemo.maxChars", "10000000"),
                    Map.entry("databases.connections.golddemo.maxRows", "1000000"),
                    Map.entry("databases.connections.goldchinook.type", "jdbc"),
                    Map.entry("databases.connections.goldchinook.url", "jdbc:sqlite:" + chinook),
                    Map.entry("databases.connections.goldchinook.maxChars", "10000000"),
                    Map.entry("databases.connections.goldchinook.maxRows", "1000000"),
                    Map.entry("databases.connections.geo.type", "jdbc"),
                    Map.entry("databases.connections.geo.url", "jdbc:sqlite:" + geo),
                    Map.entry("databases.connections.engineonly.type", "jdbc"),
                    Map.entry("databases.connections.engineonly.url", "jdbc:sqlite:" + chinook),
                    Map.entry("databases.connections.engineonly.guard", "engine-only"),
                    Map.entry("databases.connections.shop.type", "jdbc"),
                    Map.entry(
                        "databases.connections.shop.url",
                        "jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1;INIT="
                            + "CREATE SCHEMA IF NOT EXISTS SALES\\;CREATE TABLE IF NOT EXISTS SALES.ITEMS(ID INT PRIMARY KEY)\\;"
                            + "CREATE SCHEMA IF NOT EXISTS ARCHIVE\\;CREATE TABLE IF NOT EXISTS ARCHIVE.ITEMS(ID INT)\\;"
                            + "CREATE TABLE IF NOT EXISTS PUBLIC.NOTES(ID INT)"),
                    Map.entry("databases.schemaWatchSeconds", "1"),
                    Map.entry("databases.connections.scratch.type", "jdbc"),
                    Map.entry(
                        "databases.connections.scratch.url",
                        "jdbc:h2:mem:scratch;DB_CLOSE_DELAY=-1;INIT="
                            + "CREATE TABLE IF NOT EXISTS NOTES(ID INT PRIMARY KEY, BODY VARCHAR(100))"),
                    Map.entry("databases.connections.scratch.readOnly", "false"),
                    Map.entry("databases.connections.scratch.write", "true"),
                    Map.entry("databases.connections.down.type", "jdbc"),
                    Map.entry(
                        "databases.connections.down.url",
                        "jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=2"),
                    Map.entry("databases.connections.downpg.type", "postgres"),
                    Map.entry(
                        "databases.connections.downpg.url",
                        "postgresql://sonde@127.0.0.1:1/nowhere"),
                    Map.entry("databases.connections.h2engine.type", "jdbc"),
                    Map.entry("databases.connections.h2engine.url", "jdbc:h2:mem:h2engine"),
                    Map.entry("databases.connections.h2engine.guard", "engine-only"),
                    Map.entry("databases.connections.duckengine.type", "duckdb"),
                    Map.entry("databases.connections.duckengine.guard", "engine-only"),
                    Map.entry("databases.connections.quick.type", "duckdb"),
                    Map.entry("databases.connections.quick.queryTimeoutSeconds", "1")));
        client = new HttpMcpClient(instance.port());
        client.initialize("2025-11-25");
        InProcessSonde started = instance;
        Runtime.getRuntime().addShutdownHook(new Thread(started::close));
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }
    return instance;
  }

  public static synchronized HttpMcpClient client() {
    get();
    return client;
  }

  /** The CallToolResult of one call. */
  public static JsonObject call(String tool, JsonObject args) {
    long id;
    synchronized (DatabaseSonde.class) {
      id = ids++;
    }
    return client()
        .request(id, "tools/call", new JsonObject().put("name", tool).put("arguments", args))
        .getJsonObject("result");
  }
}
