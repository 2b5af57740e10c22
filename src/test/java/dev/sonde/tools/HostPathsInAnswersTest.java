package dev.sonde.tools;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.InProcessSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DuckDB names its files, its temporary folder and the home directory's extension folder in rows
 * and in errors; none of those folders reaches a client, whose answers show placeholders instead.
 */
class HostPathsInAnswersTest {
  static Path dataDir;
  static InProcessSonde sonde;
  static ToolCalls tools;

  @BeforeAll
  static void start() throws Exception {
    dataDir = Files.createTempDirectory("sonde-paths-");
    sonde =
        new InProcessSonde(
            Map.of(
                "data.dir", dataDir.toString(), "databases.connections.demo.path", "demo.duckdb"));
    tools = ToolCalls.over(sonde.port());
  }

  @AfterAll
  static void stop() {
    sonde.close();
  }

  @Test
  void theDatabaseFileAndItsTemporaryFolderAreShownUnderData() {
    String databases = answer("SELECT path FROM duckdb_databases() WHERE path IS NOT NULL");
    assertTrue(databases.contains("<data>/demo.duckdb"), databases);
    String temp = answer("SELECT current_setting('temp_directory') AS temp");
    assertTrue(temp.contains("<data>/demo.duckdb.tmp"), temp);
  }

  @Test
  void settingsNameNoHostFolder() {
    String settings = answer("SELECT name, value FROM duckdb_settings() WHERE value LIKE '%/%'");
    assertTrue(settings.contains("<data>"), settings);
    assertTrue(settings.contains("<home>/.duckdb"), "secret_directory: " + settings);
  }

  @Test
  void anExtensionErrorNamesNoHomeFolder() {
    // listing extensions looks into ~/.duckdb/extensions, which the locked-down instance refuses
    JsonObject result = call("SELECT extension_name FROM duckdb_extensions()");
    assertTrue(result.getBoolean("isError", false), result.encode());
    assertTrue(result.encode().contains("<home>/.duckdb/extensions"), result.encode());
  }

  /** The whole answer (content and structuredContent), after checking it names no host folder. */
  private static String answer(String sql) {
    JsonObject result = call(sql);
    assertFalse(result.getBoolean("isError", false), result.encode());
    return result.encode();
  }

  private static JsonObject call(String sql) {
    JsonObject result = tools.call("execute_query", new JsonObject().put("sql", sql));
    String text = result.encode();
    for (String folder : hostFolders()) {
      assertFalse(text.contains(folder), folder + " reached the client: " + text);
    }
    return result;
  }

  private static List<String> hostFolders() {
    List<String> folders = new ArrayList<>();
    for (Path folder :
        List.of(
            dataDir,
            Path.of(System.getProperty("user.home")),
            Path.of(System.getProperty("user.dir")))) {
      folders.add(folder.toAbsolutePath().toString());
      try {
        folders.add(folder.toRealPath().toString());
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    }
    return folders;
  }
}
