package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import dev.sonde.support.PackagedSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar with chatbi.embeddings on: built with -Pembeddings it matches by meaning; built
 * without (the default), it starts, says so in one log line, and answers by words.
 */
class PackagedChatBiIT {
  static final String WITHOUT_MODEL =
      "chatbi.embeddings is on but this jar was built without -Pembeddings; retrieval is lexical";

  @Test
  void embeddingsOnAnswerWhetherOrNotTheJarHoldsTheModel() throws Exception {
    Path jar = Path.of(System.getProperty("sonde.jar", "target/sonde.jar"));
    boolean bundled;
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      bundled =
          zip.stream()
              .anyMatch(e -> e.getName().startsWith("dev/langchain4j/model/embedding/onnx/"));
    }
    Path chinook = Files.createTempFile("chinook-", ".sqlite");
    Files.copy(DatabaseSonde.CHINOOK, chinook, StandardCopyOption.REPLACE_EXISTING);
    Path config = Files.createTempFile("sonde-embeddings-", ".yaml");
    Files.writeString(
        config,
        "docs:\n  enabled: false\nchatbi:\n  embeddings: true\ndatabases:\n  connections:\n"
            + "    chinook:\n      type: jdbc\n      url: jdbc:sqlite:"
            + chinook
            + "\n");
    try (PackagedSonde sonde = PackagedSonde.plainJar("--config", config.toString())) {
      JsonObject envelope =
          ToolCalls.over(sonde.port())
              .ok(
                  "chat_bi",
                  new JsonObject()
                      .put("nlq", "How many tracks are there in each genre?")
                      .put("domain", "chinook"));
      assertTrue(envelope.getBoolean("success"), envelope.encode());
      JsonObject retrieve =
          envelope.getJsonObject("bizresult").getJsonArray("trace").getJsonObject(0);
      assertEquals(bundled, retrieve.getJsonObject("data").getBoolean("dense"), retrieve.encode());
      assertEquals(
          bundled ? 0 : 1,
          sonde.stderr.stream().filter(line -> line.contains(WITHOUT_MODEL)).count(),
          String.join("\n", sonde.stderr));
    }
  }
}
