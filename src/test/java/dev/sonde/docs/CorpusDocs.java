package dev.sonde.docs;

import dev.sonde.config.ConfigLoader;
import dev.sonde.config.SondeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The shared DuckDB documentation corpus configured as a source, as tests and the bench use it. */
public final class CorpusDocs {
  public static final Path CORPUS = Path.of("../shared/corpora/duckdb-docs");

  private CorpusDocs() {}

  public static boolean available() {
    return Files.isDirectory(CORPUS.resolve("stable"));
  }

  /** Configuration keys (as flags) that add the corpus as source {@code duckdb}. */
  public static Map<String, String> flags(Path dataDir) {
    Map<String, String> flags = new HashMap<>();
    flags.put("data.dir", dataDir.toString());
    flags.put("docs.sources.duckdb.path", CORPUS.toAbsolutePath().normalize().toString());
    flags.put("docs.sources.duckdb.versions", "stable,preview,blog,stable-zh=stable");
    flags.put("docs.sources.duckdb.defaultVersion", "stable");
    flags.put("docs.sources.duckdb.urlBase", "https://duckdb.org/docs/");
    flags.put("docs.sources.duckdb.urlBases", "blog/=https://duckdb.org/,stable-zh/=");
    flags.put("docs.sources.duckdb.description", "DuckDB documentation and blog");
    return flags;
  }

  public static SondeConfig config(Path dataDir) {
    return ConfigLoader.load(null, Map.of(), flags(dataDir));
  }

  public static DocsLibrary library(Path dataDir) {
    return new DocsLibrary(config(dataDir), () -> "# Tool reference\n\nnone in this test\n");
  }
}
