package dev.sonde.chatbi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sonde.db.Database;
import dev.sonde.db.QueryRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Execution-match scoring of chat_bi on a question set: each question's answer rows against its
 * hand-written SQL's rows, compared as multisets (as lists when order matters), a row's values in
 * any column order, numbers to two decimals. Also the answer time of each question.
 */
final class Evaluation {
  record Question(String questionClass, String q, String sql, boolean ordered) {}

  record Outcome(Question question, boolean correct, String sql, String error, long micros) {}

  private Evaluation() {}

  static List<Question> questions(String resource) throws IOException {
    try (InputStream in = Evaluation.class.getResourceAsStream(resource)) {
      List<Question> out = new ArrayList<>();
      for (var node : new ObjectMapper(new YAMLFactory()).readTree(in)) {
        out.add(
            new Question(
                node.path("class").asText(),
                node.path("q").asText(),
                node.path("sql").asText(),
                node.path("ordered").asBoolean(false)));
      }
      return out;
    }
  }

  static List<Outcome> run(ChatBi chatBi, Database db, String domain, List<Question> questions)
      throws Exception {
    List<Outcome> out = new ArrayList<>();
    for (Question question : questions) {
      long started = System.nanoTime();
      JsonObject envelope =
          chatBi.ask(question.q(), domain, ZoneOffset.UTC, Evaluation::await, (s, ms) -> {});
      long micros = (System.nanoTime() - started) / 1000;
      JsonObject biz = envelope.getJsonObject("bizresult");
      if (!envelope.getBoolean("success")) {
        out.add(new Outcome(question, false, biz.getString("sql"), biz.getString("error"), micros));
        continue;
      }
      List<List<String>> got = new ArrayList<>();
      JsonObject data = biz.getJsonObject("data");
      for (Object row : data.getJsonArray("rows")) {
        JsonObject r = (JsonObject) row;
        List<Object> values = new ArrayList<>();
        data.getJsonArray("columns").forEach(c -> values.add(r.getValue((String) c)));
        got.add(normalised(values));
      }
      List<List<String>> expected = new ArrayList<>();
      JsonObject gold =
          await(
              db.query(
                  new QueryRequest(question.sql(), 10_000, false, "iso", ZoneOffset.UTC), s -> {}));
      for (Object row : gold.getJsonArray("rows")) {
        expected.add(normalised(((JsonArray) row).getList()));
      }
      boolean correct =
          question.ordered() ? got.equals(expected) : counts(got).equals(counts(expected));
      out.add(new Outcome(question, correct, biz.getString("sql"), null, micros));
    }
    return out;
  }

  private static List<String> normalised(List<?> values) {
    List<String> out = new ArrayList<>();
    for (Object v : values) {
      if (v instanceof Number n) {
        out.add(new BigDecimal(n.toString()).setScale(2, RoundingMode.HALF_UP).toPlainString());
      } else {
        out.add(String.valueOf(v));
      }
    }
    out.sort(null);
    return out;
  }

  private static Map<List<String>, Integer> counts(List<List<String>> rows) {
    Map<List<String>, Integer> out = new HashMap<>();
    rows.forEach(r -> out.merge(r, 1, Integer::sum));
    return out;
  }

  /** Accuracy by question class and overall, as a Markdown table. */
  static String table(List<Outcome> outcomes) {
    Map<String, int[]> byClass = new TreeMap<>();
    for (Outcome o : outcomes) {
      int[] t = byClass.computeIfAbsent(o.question().questionClass(), k -> new int[2]);
      t[1]++;
      if (o.correct()) {
        t[0]++;
      }
    }
    StringBuilder out =
        new StringBuilder("| class | correct | of | accuracy |\n|---|---:|---:|---:|\n");
    byClass.forEach(
        (c, t) ->
            out.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %.0f%% |%n",
                    c,
                    t[0],
                    t[1],
                    100.0 * t[0] / t[1])));
    long correct = outcomes.stream().filter(Outcome::correct).count();
    out.append(
        String.format(
            Locale.ROOT,
            "| **all** | **%d** | **%d** | **%.1f%%** |%n",
            correct,
            outcomes.size(),
            100.0 * correct / outcomes.size()));
    return out.toString();
  }

  static double accuracy(List<Outcome> outcomes) {
    return (double) outcomes.stream().filter(Outcome::correct).count() / outcomes.size();
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }
}
