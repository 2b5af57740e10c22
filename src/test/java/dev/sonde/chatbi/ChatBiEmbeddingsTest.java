package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * chat_bi with chatbi.embeddings on (retrieval by words and meaning) and off (by words only, the
 * default), and the probe that tells a jar built with -Pembeddings from one without.
 */
class ChatBiEmbeddingsTest {
  static final String NO_WORD_OF_SALES = "How much money did we make?";

  /** The retrieve step of the trace of {@code question} over the demo retail domain. */
  static JsonObject retrieved(boolean embeddings, String question) throws Exception {
    JsonObject envelope =
        Evaluation.await(
            Evaluation.chatBi(Evaluation.CHINOOK, embeddings)
                .ask(question, "retail", ZoneOffset.UTC, Evaluation.CALL, (s, ms) -> {}));
    JsonObject step = envelope.getJsonObject("bizresult").getJsonArray("trace").getJsonObject(0);
    assertEquals("retrieve", step.getString("step"), envelope.encode());
    return step.getJsonObject("data");
  }

  @Test
  void onAQuestionNamingNoWordOfAMetricIsMatchedByMeaning() throws Exception {
    JsonObject data = retrieved(true, NO_WORD_OF_SALES);
    assertTrue(data.getBoolean("dense"), data.encode());
    JsonObject first = data.getJsonArray("matches").getJsonObject(0);
    assertEquals("metric sales", first.getString("item"), data.encode());
    assertTrue(first.getJsonArray("why").getString(0).startsWith("means '"), data.encode());
  }

  @Test
  void offRetrievalCountsOnlyTheWordsTheQuestionSays() throws Exception {
    JsonObject meaningless = retrieved(false, NO_WORD_OF_SALES);
    assertFalse(meaningless.getBoolean("dense"), meaningless.encode());
    assertFalse(meaningless.encode().contains("metric sales"), meaningless.encode());
    JsonObject said = retrieved(false, "total sales per product");
    assertEquals(
        "metric sales",
        said.getJsonArray("matches").getJsonObject(0).getString("item"),
        said.encode());
    assertFalse(said.encode().contains("means '"), said.encode());
  }

  @Test
  void theModelIsFoundOnlyOnAClassPathThatHoldsIt() throws Exception {
    assertTrue(Embedder.bundled(), "the tests' class path holds the model");
    URL sondeAlone = Path.of("target/classes").toUri().toURL();
    try (URLClassLoader withoutModel =
        new URLClassLoader(new URL[] {sondeAlone}, ClassLoader.getPlatformClassLoader())) {
      Class<?> embedder = withoutModel.loadClass(Embedder.class.getName());
      assertEquals(false, embedder.getMethod("bundled").invoke(null));
    }
  }
}
