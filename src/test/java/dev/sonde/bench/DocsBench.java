package dev.sonde.bench;

import dev.sonde.docs.CorpusDocs;
import dev.sonde.docs.DocChunk;
import dev.sonde.docs.DocPage;
import dev.sonde.docs.DocsLibrary;
import dev.sonde.docs.RelevanceSet;
import io.vertx.core.json.JsonObject;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The docs benchmark: builds the index of the whole DuckDB corpus from nothing, measures search
 * latency over the relevance questions, scores relevance, and writes the same chunks (stable and
 * its Chinese translation) for the SQLite FTS5 baseline in bench/docs-fts5.py.
 *
 * <p>Usage: {@code DocsBench WORK_DIR}; prints {@code key value} lines.
 */
public final class DocsBench {
  private DocsBench() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    Path data = work.resolve("data");
    deleteTree(data);
    List<RelevanceSet.Question> questions = RelevanceSet.load();
    try (DocsLibrary library = CorpusDocs.library(data)) {
      long start = System.nanoTime();
      DocsLibrary.SyncReport report = library.sync((done, total, message) -> {});
      double buildSeconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("build_seconds %.2f%n", buildSeconds);
      System.out.println("build_pages " + report.indexed());
      start = System.nanoTime();
      library.sync((done, total, message) -> {});
      System.out.printf("rescan_seconds %.2f%n", (System.nanoTime() - start) / 1e9);
      RelevanceSet.Ranker sonde = RelevanceSet.sonde(library);
      for (int round = 0; round < 20; round++) {
        for (RelevanceSet.Question q : questions) {
          library.search(q.text(), "stable", "duckdb", 8);
        }
      }
      int rounds = Integer.getInteger("rounds", 50);
      double[] micros = new double[rounds * questions.size()];
      int i = 0;
      for (int round = 0; round < rounds; round++) {
        for (RelevanceSet.Question q : questions) {
          long t = System.nanoTime();
          library.search(q.text(), "stable", "duckdb", 8);
          micros[i++] = (System.nanoTime() - t) / 1e3;
        }
      }
      Arrays.sort(micros);
      System.out.printf("latency_p50_ms %.3f%n", micros[micros.length / 2] / 1000);
      System.out.printf("latency_p99_ms %.3f%n", micros[(int) (micros.length * 0.99)] / 1000);
      System.out.println("en " + RelevanceSet.score(questions, q -> !q.cjk(), sonde));
      System.out.println("cjk " + RelevanceSet.score(questions, RelevanceSet.Question::cjk, sonde));
    }
    exportChunks(work.resolve("chunks.jsonl"));
  }

  /** The chunks Sonde indexes for stable and stable-zh, for the baseline to index the same. */
  private static void exportChunks(Path out) throws Exception {
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      for (String folder : List.of("stable", "stable-zh")) {
        Path root = CorpusDocs.CORPUS.resolve(folder);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
          files = walk.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        for (Path file : files) {
          String trail = root.relativize(file).toString().replace('\\', '/');
          String path = folder + "/" + trail;
          DocPage page =
              DocPage.fromMarkdown("duckdb", path, trail, "stable", "", Files.readString(file), "");
          for (DocChunk c : page.chunks()) {
            w.write(
                new JsonObject()
                    .put("path", path)
                    .put("title", page.title())
                    .put("section", c.section())
                    .put("text", c.prose() + "\n" + c.code())
                    .encode());
            w.write('\n');
          }
        }
      }
    }
  }

  private static void deleteTree(Path dir) throws Exception {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Path> all = new ArrayList<>(walk.toList());
      java.util.Collections.reverse(all);
      for (Path p : all) {
        Files.delete(p);
      }
    }
  }
}
