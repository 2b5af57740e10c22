package dev.sonde.chatbi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sonde.config.SondeConfig;
import dev.sonde.core.Call;
import dev.sonde.db.Database;
import dev.sonde.db.QueryRequest;
import dev.sonde.support.DatabaseSonde;
import dev.sonde.tools.FamilyVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
  /** The call every evaluated question runs under: never stopped. */
  static final Call CALL =
      Call.background(
          "evaluation", FamilyVerticle.pool(DatabaseSonde.get().sonde().vertx(), "evaluation", 2));

  /** A question: its id and language where the set names them ("" and "en" otherwise). */
  record Question(
      String id, String lang, String questionClass, String q, String sql, boolean ordered) {
    Question(String questionClass, String q, String sql, boolean ordered) {
      this("", "en", questionClass, q, sql, ordered);
    }
  }

  /**
   * {@code correct}: the same set of rows as the gold SQL (the "result sets"); {@code
   * sameCounts}: also each row as many times, which GeoQuery's gold SQL rarely means (its river
   * table holds a river once per state it crosses). {@code skipped}: the gold SQL itself does not
   * run on this database, so it scores nothing.
   */
  record Outcome(
      Question question,
      boolean correct,
      boolean sameCounts,
      String sql,
      String error,
      long micros,
      boolean skipped) {}

  /** The ontology folders of the two question sets. */
  static final String CHINOOK = "conf/ontology";

  static final String GEO = "src/test/resources/chatbi/geo-ontology";

  private Evaluation() {}

  /**
   * chat_bi over the shared test databases with the defaults, except that answers keep every row
   * (the gold answers are compared whole) and retrieval matches by meaning when {@code embeddings}.
   */
  static ChatBi chatBi(String ontologyFolder, boolean embeddings) throws IOException {
    var sonde = DatabaseSonde.get().sonde();
    SondeConfig.ChatBiConfig d = SondeConfig.defaults().chatbi();
    SondeConfig.ChatBiConfig config =
        new SondeConfig.ChatBiConfig(
            ontologyFolder,
            10_000,
            d.explainTimeoutSeconds(),
            d.traceKeepDays(),
            d.traceKeepFiles(),
            embeddings,
            d.llm());
    return new ChatBi(
        sonde.vertx(),
        sonde.databases(),
        config,
        Files.createTempDirectory("sonde-eval-"),
        Map.of());
  }

  static List<Outcome> chinook(ChatBi chatBi) throws Exception {
    return run(chatBi, database("chinook"), "chinook", questions("/chatbi/chinook-questions.yaml"));
  }

  static List<Outcome> geoQuery(ChatBi chatBi, String split) throws Exception {
    return run(
        chatBi,
        database("geo"),
        "geo",
        geoQuery(Path.of("../shared/datasets/geoquery/geography.json"), split));
  }

  /** The evaluation sets written before issue 21's rules: each database's dev and held-out part. */
  static final List<String> NEW_SETS =
      List.of("chinook-dev", "chinook-heldout", "retail-dev", "retail-heldout");

  /** The connection each new set's gold SQL runs on. */
  static String connectionOf(String set) {
    return set.startsWith("chinook") ? "goldchinook" : "golddemo";
  }

  /**
   * One of the new sets over {@code domain} (curated: chinook or retail; or a bootstrapped one).
   */
  static List<Outcome> newSet(ChatBi chatBi, String set, String domain) throws Exception {
    return run(
        chatBi, database(connectionOf(set)), domain, questions("/chatbi/eval/" + set + ".yaml"));
  }

  /** A domain bootstrapped from a connection's catalogue alone, in a folder of its own. */
  static String bootstrapped(String connection) throws Exception {
    Path folder = Files.createTempDirectory("sonde-bootstrap-" + connection + "-");
    await(OntologyBootstrap.into(database(connection), connection, folder));
    return folder.toString();
  }

  /**
   * Right, refused and wrong (answered with other rows while reporting success) by language, as a
   * Markdown table: the figures a held-out set may show.
   */
  static String verdicts(List<Outcome> all) {
    Map<String, int[]> byLang = new TreeMap<>();
    for (Outcome o : scored(all)) {
      for (String lang : List.of(o.question().lang(), "all")) {
        int[] t = byLang.computeIfAbsent(lang, k -> new int[4]);
        t[0]++;
        t[o.correct() ? 1 : o.error() != null ? 2 : 3]++;
      }
    }
    StringBuilder out =
        new StringBuilder("| language | questions | right | refused | **wrong** | accuracy |\n")
            .append("|---|---:|---:|---:|---:|---:|\n");
    byLang.forEach(
        (lang, t) ->
            out.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %d | **%d** | %.0f%% |%n",
                    lang,
                    t[0],
                    t[1],
                    t[2],
                    t[3],
                    100.0 * t[1] / t[0])));
    return out.toString();
  }

  /** The questions answered wrongly, by id, class and language only: a held-out set's misses. */
  static List<String> wrongIds(List<Outcome> all) {
    return scored(all).stream()
        .filter(o -> !o.correct() && o.error() == null)
        .map(
            o ->
                o.question().id()
                    + " ("
                    + o.question().questionClass()
                    + ", "
                    + o.question().lang()
                    + ")")
        .toList();
  }

  private static Database database(String name) {
    return DatabaseSonde.get().sonde().databases().own(name);
  }

  /** The accuracy table, then each miss with the SQL or the reason, and the gold SQL. */
  static String report(List<Outcome> outcomes) {
    StringBuilder report = new StringBuilder(table(outcomes)).append('\n');
    outcomes.stream()
        .filter(o -> !o.correct() && !o.skipped())
        .forEach(
            o ->
                report
                    .append("- ")
                    .append(o.question().q())
                    .append(" → ")
                    .append(o.error() != null ? o.error() : o.sql().replace('\n', ' '))
                    .append("\n  - gold: ")
                    .append(o.question().sql())
                    .append('\n'));
    return report.toString();
  }

  static List<Question> questions(String resource) throws IOException {
    try (InputStream in = Evaluation.class.getResourceAsStream(resource)) {
      List<Question> out = new ArrayList<>();
      for (var node : new ObjectMapper(new YAMLFactory()).readTree(in)) {
        out.add(
            new Question(
                node.path("id").asText(""),
                node.path("lang").asText("en"),
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
      JsonObject gold;
      try {
        gold =
            await(
                db.query(
                    new QueryRequest(question.sql(), 10_000, false, "iso", ZoneOffset.UTC),
                    Evaluation.CALL));
      } catch (RuntimeException e) {
        out.add(new Outcome(question, false, false, "", e.getMessage(), 0, true));
        continue;
      }
      long started = System.nanoTime();
      JsonObject envelope =
          Evaluation.await(
              chatBi.ask(question.q(), domain, ZoneOffset.UTC, Evaluation.CALL, (s, ms) -> {}));
      long micros = (System.nanoTime() - started) / 1000;
      JsonObject biz = envelope.getJsonObject("bizresult");
      if (!envelope.getBoolean("success")) {
        out.add(
            new Outcome(
                question,
                false,
                false,
                biz.getString("sql"),
                biz.getString("error"),
                micros,
                false));
        continue;
      }
      List<List<Object>> got = new ArrayList<>();
      JsonObject data = biz.getJsonObject("data");
      for (Object row : data.getJsonArray("rows")) {
        JsonObject r = (JsonObject) row;
        List<Object> values = new ArrayList<>();
        data.getJsonArray("columns").forEach(c -> values.add(r.getValue((String) c)));
        got.add(values);
      }
      List<List<String>> expected = new ArrayList<>();
      int width = gold.getJsonArray("columns").size();
      for (Object row : gold.getJsonArray("rows")) {
        expected.add(normalised(((JsonArray) row).getList()));
      }
      // an answer the row cap cut says so: right when what it shows is gold and it counts the rest
      boolean cut = data.getBoolean("truncated", false);
      boolean correct =
          cut
              ? data.getLong("actualRows", -1L) == expected.size()
                  && shownAreGold(got, expected, width)
              : matches(got, expected, width, question.ordered(), false);
      boolean sameCounts = correct && matches(got, expected, width, question.ordered(), true);
      out.add(
          new Outcome(question, correct, sameCounts, biz.getString("sql"), null, micros, false));
    }
    return out;
  }

  /**
   * The answer matches when some {@code width} of its columns hold exactly the gold rows: an answer
   * may show its measure beside the names a gold query selects alone. Unordered rows compare as
   * sets, or as multisets when {@code counted}.
   */
  private static boolean matches(
      List<List<Object>> got,
      List<List<String>> expected,
      int width,
      boolean ordered,
      boolean counted) {
    int columns = got.isEmpty() ? width : got.get(0).size();
    for (List<Integer> pick : combinations(columns, width)) {
      List<List<String>> projected = new ArrayList<>();
      for (List<Object> row : got) {
        List<Object> values = new ArrayList<>();
        pick.forEach(i -> values.add(row.get(i)));
        projected.add(normalised(values));
      }
      boolean same =
          ordered
              ? projected.equals(expected)
              : counted
                  ? counts(projected).equals(counts(expected))
                  : new HashSet<>(projected).equals(new HashSet<>(expected));
      if (same) {
        return true;
      }
    }
    return false;
  }

  /** Whether some {@code width} of the answer's columns hold only gold rows. */
  private static boolean shownAreGold(
      List<List<Object>> got, List<List<String>> expected, int width) {
    int columns = got.isEmpty() ? width : got.get(0).size();
    Set<List<String>> gold = new HashSet<>(expected);
    for (List<Integer> pick : combinations(columns, width)) {
      boolean all = true;
      for (List<Object> row : got) {
        List<Object> values = new ArrayList<>();
        pick.forEach(i -> values.add(row.get(i)));
        all &= gold.contains(normalised(values));
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  private static List<List<Integer>> combinations(int n, int k) {
    List<List<Integer>> out = new ArrayList<>();
    combine(0, n, k, new ArrayList<>(), out);
    return out;
  }

  private static void combine(int from, int n, int k, List<Integer> so, List<List<Integer>> out) {
    if (so.size() == k) {
      out.add(new ArrayList<>(so));
      return;
    }
    for (int i = from; i < n; i++) {
      so.add(i);
      combine(i + 1, n, k, so, out);
      so.remove(so.size() - 1);
    }
  }

  /**
   * GeoQuery's questions of one split of its question split, variables filled in, classed by the
   * shape of their gold SQL.
   */
  static List<Question> geoQuery(Path json, String split) throws IOException {
    List<Question> out = new ArrayList<>();
    for (var entry : new ObjectMapper().readTree(json.toFile())) {
      String sql = entry.path("sql").get(0).asText();
      for (var sentence : entry.path("sentences")) {
        if (!split.equals(sentence.path("question-split").asText())) {
          continue;
        }
        String text = sentence.path("text").asText();
        String filled = sql;
        var names = sentence.path("variables").fieldNames();
        while (names.hasNext()) {
          String name = names.next();
          String value = sentence.path("variables").path(name).asText();
          text = text.replace(name, value);
          filled = filled.replace("\"" + name + "\"", "'" + value.replace("'", "''") + "'");
          filled = filled.replace(name, value);
        }
        out.add(new Question(geoClass(filled), text, filled.replace(" ;", ""), false));
      }
    }
    return out;
  }

  private static String geoClass(String sql) {
    String s = sql.toUpperCase(Locale.ROOT);
    int selects = s.split("SELECT").length - 1;
    if (s.contains("COUNT(")) {
      return "count";
    }
    if (s.contains("MAX(") || s.contains("MIN(")) {
      return selects > 2 ? "superlative-nested" : "superlative";
    }
    if (selects > 1) {
      return "nested";
    }
    return s.split(" AS ").length > 3 ? "join" : "lookup";
  }

  private static List<String> normalised(List<?> values) {
    List<String> out = new ArrayList<>();
    for (Object v : values) {
      // an engine prints a wide integer or a decimal as text: the same number either way
      String numeric =
          v instanceof Number n
              ? n.toString()
              : v instanceof String t && t.matches("-?\\d+(\\.\\d+)?") ? t : null;
      if (numeric != null) {
        out.add(new BigDecimal(numeric).setScale(2, RoundingMode.HALF_UP).toPlainString());
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
  static String table(List<Outcome> all) {
    List<Outcome> outcomes = scored(all);
    Map<String, int[]> byClass = new TreeMap<>();
    for (Outcome o : outcomes) {
      int[] t = byClass.computeIfAbsent(o.question().questionClass(), k -> new int[3]);
      t[1]++;
      t[0] += o.correct() ? 1 : 0;
      t[2] += o.sameCounts() ? 1 : 0;
    }
    StringBuilder out =
        new StringBuilder(
            "| class | correct | of | accuracy | rows counted too |\n|---|---:|---:|---:|---:|\n");
    byClass.forEach(
        (c, t) ->
            out.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %.0f%% | %.0f%% |%n",
                    c,
                    t[0],
                    t[1],
                    100.0 * t[0] / t[1],
                    100.0 * t[2] / t[1])));
    long correct = outcomes.stream().filter(Outcome::correct).count();
    long sameCounts = outcomes.stream().filter(Outcome::sameCounts).count();
    out.append(
        String.format(
            Locale.ROOT,
            "| **all** | **%d** | **%d** | **%.1f%%** | %.1f%% |%n",
            correct,
            outcomes.size(),
            100.0 * correct / outcomes.size(),
            100.0 * sameCounts / outcomes.size()));
    long refused = outcomes.stream().filter(o -> !o.correct() && o.error() != null).count();
    long wrong = outcomes.stream().filter(o -> !o.correct() && o.error() == null).count();
    out.append(
        String.format(
            Locale.ROOT,
            "%nOf the misses, %d were refused with a reason and %d answered with other rows.%n",
            refused,
            wrong));
    long skipped = all.size() - outcomes.size();
    if (skipped > 0) {
      out.append("\n")
          .append(skipped)
          .append(" questions skipped: their gold SQL does not run here.\n");
    }
    return out.toString();
  }

  private static List<Outcome> scored(List<Outcome> all) {
    return all.stream().filter(o -> !o.skipped()).toList();
  }

  static double accuracy(List<Outcome> all) {
    List<Outcome> outcomes = scored(all);
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
