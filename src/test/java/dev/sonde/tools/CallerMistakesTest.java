package dev.sonde.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A name the file system refuses as too long is the caller's to shorten: a tool error that says so,
 * not -32603, and one log line without a stack or the host's folders.
 */
class CallerMistakesTest {
  static final String LONG_NAME = "n".repeat(300);

  static Path dataDir;
  static InProcessSonde sonde;
  static HttpMcpClient client;
  static long ids = 1;
  final ListAppender<ILoggingEvent> log = new ListAppender<>();

  @BeforeAll
  static void start() throws Exception {
    dataDir = Files.createTempDirectory("sonde-mistakes-");
    sonde = new InProcessSonde(Map.of("data.dir", dataDir.toString()));
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
  }

  @AfterAll
  static void stop() {
    client.close();
    sonde.close();
  }

  @BeforeEach
  void captureTheLog() {
    log.start();
    root().addAppender(log);
  }

  @AfterEach
  void releaseTheLog() {
    root().detachAppender(log);
  }

  private static Logger root() {
    return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }

  @Test
  void aFolderNameOver255BytesIsAToolErrorSayingSo() {
    String refusal =
        refused("create_folder", new JsonObject().put("folder_name", "t7/" + LONG_NAME));
    assertTrue(refusal.contains("255 bytes"), refusal);
  }

  @Test
  void aFileNameOver255BytesIsAToolError() {
    refused("delete_file", new JsonObject().put("filename", LONG_NAME + ".json"));
  }

  @Test
  void aNameOf100WideCharactersIsAToolErrorSayingSo() {
    // 100 characters pass the schema's limit; in UTF-8 they are 300 bytes
    String refusal = refused("create_folder", new JsonObject().put("folder_name", "日".repeat(100)));
    assertTrue(refusal.contains("255 bytes"), refusal);
  }

  /** The refusal's text, after checking it and its log line carry no host folder and no stack. */
  private String refused(String tool, JsonObject args) {
    JsonObject response =
        client.request(
            ids++, "tools/call", new JsonObject().put("name", tool).put("arguments", args));
    assertNull(response.getValue("error"), response.encode());
    JsonObject result = response.getJsonObject("result");
    assertTrue(result.getBoolean("isError", false), result.encode());
    String text = result.getJsonArray("content").getJsonObject(0).getString("text");
    assertFalse(text.contains(dataDir.toString()), text);
    assertFalse(text.contains(System.getProperty("user.home") + "/"), text);
    List<ILoggingEvent> lines =
        log.list.stream().filter(e -> e.getFormattedMessage().contains(tool)).toList();
    assertEquals(1, lines.size(), "one line for the mistake: " + log.list);
    ILoggingEvent line = lines.get(0);
    assertNull(line.getThrowableProxy(), "a stack for a caller's mistake: " + line);
    assertFalse(line.getFormattedMessage().contains(dataDir.toString()), line.toString());
    assertFalse(line.getFormattedMessage().contains("\n"), line.toString());
    return text;
  }
}
