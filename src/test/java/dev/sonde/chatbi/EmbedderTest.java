package dev.sonde.chatbi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EmbedderTest {
  @Test
  void paraphrasesAreCloserThanUnrelatedTextsWithTheModelInsideTheJar() {
    float[][] v =
        Embedder.embed(
            List.of(
                "total revenue of the shop",
                "how much money did we make from sales",
                "the river crosses three states"));
    assertEquals(384, v[0].length);
    assertEquals(1.0, Embedder.cosine(v[0], v[0]), 1e-4);
    float related = Embedder.cosine(v[0], v[1]);
    float unrelated = Embedder.cosine(v[0], v[2]);
    assertTrue(related > unrelated + 0.2, related + " vs " + unrelated);
  }
}
