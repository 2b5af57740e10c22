package dev.sonde.chatbi;

import dev.sonde.config.ConfigLoader;
import dev.sonde.support.DatabaseSonde;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * chat_bi without a model, in one run: execution accuracy by question class on the Chinook set and
 * on GeoQuery's question split (train, dev, test, and test again over a domain bootstrapped from
 * the catalog alone), the time of the first question (with embeddings, the model loading) and
 * p50/p95 of the end-to-end answer time after it; the misses of each set in
 * target/bench/chatbi-chinook.md and chatbi-geoquery-<split>.md. Run by bench/chatbi-run; retrieval
 * matches by meaning when SONDE_CHATBI_EMBEDDINGS is true, as in Sonde.
 */
public final class ChatBiBench {
  public static void main(String[] args) throws Exception {
    boolean embeddings = ConfigLoader.load(null, System.getenv(), Map.of()).chatbi().embeddings();
    StringBuilder out =
        new StringBuilder("## chat_bi without a model (bash bench/chatbi-run), embeddings ")
            .append(embeddings ? "on" : "off")
            .append("\n\n");
    ChatBi chinook = Evaluation.chatBi(Evaluation.CHINOOK, embeddings);
    long first = System.nanoTime();
    Evaluation.await(
        chinook.ask(
            "How much money did we make?",
            "chinook",
            ZoneOffset.UTC,
            Evaluation.CALL,
            (s, ms) -> {}));
    out.append(
        String.format(
            Locale.ROOT,
            "First question%s: %.0f ms%n%n",
            embeddings ? " (loads the embedding model)" : "",
            (System.nanoTime() - first) / 1e6));
    List<Evaluation.Outcome> c = Evaluation.chinook(chinook);
    Files.writeString(Path.of("target/bench/chatbi-chinook.md"), Evaluation.report(c));
    out.append("### Chinook (67 questions, English and Chinese)\n\n")
        .append(Evaluation.table(c))
        .append(times(c))
        .append('\n');
    ChatBi geo = Evaluation.chatBi(Evaluation.GEO, embeddings);
    for (String split : List.of("train", "dev", "test")) {
      List<Evaluation.Outcome> g = Evaluation.geoQuery(geo, split);
      Files.writeString(
          Path.of("target/bench/chatbi-geoquery-" + split + ".md"), Evaluation.report(g));
      out.append("### GeoQuery, question split: ")
          .append(split)
          .append("\n\n")
          .append(Evaluation.table(g))
          .append(times(g))
          .append('\n');
    }
    // the same test split over a domain bootstrapped from the catalog, not curated
    Path bootstrapped = Files.createTempDirectory("sonde-geo-bootstrap-");
    Evaluation.await(
        OntologyBootstrap.into(
            DatabaseSonde.get().sonde().databases().own("geo"), "geo", bootstrapped));
    List<Evaluation.Outcome> raw =
        Evaluation.geoQuery(Evaluation.chatBi(bootstrapped.toString(), embeddings), "test");
    out.append("### GeoQuery, question split: test, over the bootstrapped domain\n\n")
        .append(Evaluation.table(raw))
        .append(times(raw))
        .append('\n');
    System.out.print(out);
    System.exit(0);
  }

  /** p50 and p95 of the answer times, skipped questions left out. */
  static String times(List<Evaluation.Outcome> outcomes) {
    long[] micros =
        outcomes.stream()
            .filter(o -> !o.skipped())
            .mapToLong(Evaluation.Outcome::micros)
            .sorted()
            .toArray();
    return String.format(
        Locale.ROOT,
        "%nEnd to end (retrieve, generate, validate, execute): p50 %.1f ms, p95 %.1f ms over %d questions.%n",
        micros[micros.length / 2] / 1000.0,
        micros[(int) Math.min(micros.length - 1, Math.ceil(micros.length * 0.95) - 1)] / 1000.0,
        micros.length);
  }

  private ChatBiBench() {}
}
