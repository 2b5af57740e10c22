package dev.sonde.chatbi;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.util.List;

/**
 * Sentence embeddings from the quantized all-MiniLM-L6-v2 that ships inside a jar built with
 * -Pembeddings, run in process by ONNX Runtime: no network. The model and its native runtime load
 * on first use (about two seconds), so a Sonde that never embeds never pays for them; without
 * -Pembeddings they are not in the jar at all, and nothing here may run.
 */
public final class Embedder {
  private static final String MODEL_CLASS =
      "dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel";

  private Embedder() {}

  /** Whether the model and its runtime are on the class path, found without loading them. */
  public static boolean bundled() {
    return Embedder.class.getClassLoader().getResource(MODEL_CLASS.replace('.', '/') + ".class")
        != null;
  }

  private static final class Holder {
    static {
      // DJL's tokenizer would otherwise look online for a native library it already has
      System.setProperty("ai.djl.offline", "true");
    }

    static final EmbeddingModel MODEL = new AllMiniLmL6V2QuantizedEmbeddingModel();
  }

  /** Unit-length vectors, one per text, so a dot product is the cosine similarity. */
  public static float[][] embed(List<String> texts) {
    List<Embedding> embeddings =
        Holder.MODEL.embedAll(texts.stream().map(TextSegment::from).toList()).content();
    float[][] out = new float[embeddings.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = normalised(embeddings.get(i).vector());
    }
    return out;
  }

  public static float[] embed(String text) {
    return embed(List.of(text))[0];
  }

  static float cosine(float[] a, float[] b) {
    float dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
    }
    return dot;
  }

  private static float[] normalised(float[] v) {
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    float scale = norm == 0 ? 0 : (float) (1 / Math.sqrt(norm));
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] * scale;
    }
    return out;
  }
}
