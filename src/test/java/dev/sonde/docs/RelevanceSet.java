package dev.sonde.docs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The questions of {@code docs/relevance.tsv} with the pages that answer them, and the scorer:
 * MRR@10 (mean of 1/rank of the first answering page in the first 10 distinct pages) and recall@5
 * (share of questions with an answering page among the first 5).
 */
public final class RelevanceSet {
  public record Question(String language, String text, Set<String> answers) {
    public boolean cjk() {
      return !language.equals("en");
    }
  }

  /** A search under test: the question, and the distinct page paths it ranks, best first. */
  public interface Ranker {
    List<String> rank(String question) throws Exception;
  }

  public record Score(int questions, double mrr10, double recall5) {
    @Override
    public String toString() {
      return String.format("n=%d MRR@10=%.3f recall@5=%.3f", questions, mrr10, recall5);
    }
  }

  private RelevanceSet() {}

  public static List<Question> load() throws IOException {
    try (InputStream in = RelevanceSet.class.getResourceAsStream("/docs/relevance.tsv")) {
      List<Question> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] parts = line.split("\t");
        out.add(
            new Question(parts[0], parts[1], new LinkedHashSet<>(List.of(parts[2].split(",")))));
      }
      return out;
    }
  }

  public static Score score(List<Question> questions, Predicate<Question> which, Ranker ranker)
      throws Exception {
    int n = 0;
    double reciprocal = 0;
    int found5 = 0;
    for (Question q : questions) {
      if (!which.test(q)) {
        continue;
      }
      n++;
      List<String> ranked = ranker.rank(q.text());
      for (int i = 0; i < Math.min(10, ranked.size()); i++) {
        if (q.answers().contains(ranked.get(i))) {
          reciprocal += 1.0 / (i + 1);
          if (i < 5) {
            found5++;
          }
          break;
        }
      }
    }
    return new Score(n, n == 0 ? 0 : reciprocal / n, n == 0 ? 0 : found5 / (double) n);
  }

  /** Sonde's ranking: search_documents' hits in stable, their distinct pages in order. */
  public static Ranker sonde(DocsLibrary library) {
    return question -> {
      List<String> pages = new ArrayList<>();
      for (SearchHit hit : library.search(question, "stable", "duckdb", 20).hits()) {
        if (!pages.contains(hit.path())) {
          pages.add(hit.path());
        }
      }
      return pages;
    };
  }
}
