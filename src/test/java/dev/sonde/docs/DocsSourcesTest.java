package dev.sonde.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.config.ConfigLoader;
import dev.sonde.config.SondeConfig;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Incremental rebuilds of a Markdown folder, and DuckDB docs-search databases from a file or URL.
 */
class DocsSourcesTest {
  private static final String NOTHING = "# Tool reference\n";

  private static SondeConfig config(Path data, Map<String, String> flags) {
    Map<String, String> all = new HashMap<>(flags);
    all.put("data.dir", data.toString());
    return ConfigLoader.load(null, Map.of(), all);
  }

  private static List<String> found(DocsLibrary library, String question, String source)
      throws Exception {
    return library.search(question, "all", source, 10).hits().stream()
        .map(SearchHit::path)
        .toList();
  }

  @Test
  void onlyChangedPagesAreIndexedAgainAndRemovedOnesLeave() throws Exception {
    Path data = Files.createTempDirectory("sonde-docs-");
    Path folder = Files.createTempDirectory("handbook-");
    Files.writeString(folder.resolve("alpha.md"), "# Alpha\n\nThe zebrafish section.\n");
    Files.writeString(folder.resolve("beta.md"), "# Beta\n\nAbout quokkas.\n");
    Files.createDirectories(folder.resolve("drafts"));
    Files.writeString(folder.resolve("drafts/gamma.md"), "# Gamma\n\nSecret axolotl.\n");
    Map<String, String> flags =
        Map.of(
            "docs.sources.handbook.path",
            folder.toString(),
            "docs.sources.handbook.exclude",
            "drafts/**",
            "docs.sources.handbook.version",
            "V2");
    try (DocsLibrary library = new DocsLibrary(config(data, flags), () -> NOTHING)) {
      DocsLibrary.SyncReport first = library.sync((d, t, m) -> {});
      int manual = library.catalogue("sonde", null).size();
      assertEquals(manual + 2, first.indexed(), "alpha, beta and the manual: " + first);
      assertTrue(found(library, "axolotl", "handbook").isEmpty(), "excluded by the glob");
      Files.writeString(
          folder.resolve("alpha.md"),
          "---\ntitle: Alpha\nredirect_from:\n- /old/alpha\n---\n\nNow about narwhals.\n");
      Files.delete(folder.resolve("beta.md"));
      Files.writeString(folder.resolve("delta.md"), "# Delta\n\nPangolins.\n");
      DocsLibrary.SyncReport second = library.sync((d, t, m) -> {});
      assertEquals(new DocsLibrary.SyncReport(2, 1, manual, second.millis()), second);
      assertEquals(List.of("alpha.md"), found(library, "narwhals", "handbook"));
      assertEquals("handbook/alpha.md", library.resolve("/old/alpha").key(), "by redirect_from");
      assertEquals(
          "V2",
          library.search("narwhals", "v2", "handbook", 5).hits().get(0).version(),
          "a label matches in any letter case");
      assertTrue(found(library, "zebrafish", "handbook").isEmpty());
      assertTrue(found(library, "quokkas", "handbook").isEmpty());
      assertEquals(List.of("delta.md"), found(library, "pangolins", "handbook"));
      assertEquals(
          new DocsLibrary.SyncReport(0, 0, manual + 2, 0),
          withoutTime(library.sync((d, t, m) -> {})));
    }
    try (DocsLibrary reopened = new DocsLibrary(config(data, flags), () -> NOTHING)) {
      assertEquals(0, reopened.sync((d, t, m) -> {}).indexed(), "the index on disk is reused");
      assertEquals(List.of("alpha.md"), found(reopened, "narwhals", "handbook"));
    }
  }

  @Test
  void anUnreadableIndexIsBuiltAgain() throws Exception {
    Path data = Files.createTempDirectory("sonde-docs-");
    Map<String, String> flags = Map.of();
    try (DocsLibrary library = new DocsLibrary(config(data, flags), () -> NOTHING)) {
      library.sync((d, t, m) -> {});
    }
    try (Stream<Path> files = Files.list(data.resolve("docs-index"))) {
      for (Path file :
          files.filter(f -> f.getFileName().toString().startsWith("segments_")).toList()) {
        Files.write(file, new byte[] {1, 2, 3});
      }
    }
    try (DocsLibrary library = new DocsLibrary(config(data, flags), () -> NOTHING)) {
      DocsLibrary.SyncReport report = library.sync((d, t, m) -> {});
      assertEquals(library.catalogue().size(), report.indexed(), report.toString());
      assertTrue(library.search("recurring queries", null, "sonde", 3).hits().size() > 0);
    }
  }

  @Test
  void aMissingFolderIsReportedWithoutItsPath() throws Exception {
    Path data = Files.createTempDirectory("sonde-docs-");
    Map<String, String> flags = Map.of("docs.sources.gone.path", "/nonexistent/handbook");
    try (DocsLibrary library = new DocsLibrary(config(data, flags), () -> NOTHING)) {
      library.sync((d, t, m) -> {});
      List<String> notices = library.search("anything", null, null, 5).notices();
      assertTrue(
          notices.contains(
              "the folder of source gone (docs.sources.gone.path) does not exist; its pages are"
                  + " not searched"),
          notices.toString());
      assertTrue(notices.stream().noneMatch(n -> n.contains("/nonexistent")), notices.toString());
    }
    assertEquals(
        "https://duckdb.org/data/x.duckdb",
        DocsSearchDatabaseSource.shown("https://user:secret@duckdb.org/data/x.duckdb"));
  }

  private static DocsLibrary.SyncReport withoutTime(DocsLibrary.SyncReport r) {
    return new DocsLibrary.SyncReport(r.indexed(), r.removed(), r.unchanged(), 0);
  }

  /** A docs-search database in duckdb.org's format, built from a sample of the shared corpus. */
  static Path docsSearchDatabase(Path file) throws Exception {
    Assumptions.assumeTrue(CorpusDocs.available(), "../shared/corpora/duckdb-docs is not here");
    List<Path> sample;
    try (Stream<Path> walk = Files.walk(CorpusDocs.CORPUS.resolve("stable/sql/statements"))) {
      sample = walk.filter(p -> p.toString().endsWith(".md")).sorted().limit(12).toList();
    }
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE docs_chunks (chunk_id VARCHAR, page_title VARCHAR, section VARCHAR,"
              + " breadcrumb VARCHAR, url VARCHAR, version VARCHAR, text VARCHAR)");
      try (PreparedStatement insert =
          c.prepareStatement("INSERT INTO docs_chunks VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        int id = 0;
        for (Path page : sample) {
          String name = page.getFileName().toString().replace(".md", "");
          String url = "https://duckdb.org/docs/stable/sql/statements/" + name;
          MarkdownPage parsed = MarkdownPage.parse(Files.readString(page), name);
          for (MarkdownPage.Section section : parsed.sections()) {
            insert.setString(1, "c" + id++);
            insert.setString(2, parsed.title());
            insert.setString(3, section.level() == 0 ? parsed.title() : section.heading());
            insert.setString(4, "SQL > Statements > " + parsed.title());
            insert.setString(5, url + (section.anchor().isEmpty() ? "" : "#" + section.anchor()));
            insert.setString(6, "stable");
            insert.setString(7, section.text());
            insert.addBatch();
          }
        }
        insert.executeBatch();
      }
    }
    return file;
  }

  @Test
  void aDocsSearchDatabaseIsIndexedAndReadLikeAnyOtherSource() throws Exception {
    Path data = Files.createTempDirectory("sonde-docs-");
    Path db = docsSearchDatabase(data.resolve("docs-search.duckdb"));
    Map<String, String> flags =
        Map.of(
            "docs.sources.web.type",
            "duckdb",
            "docs.sources.web.path",
            db.getFileName().toString());
    try (DocsLibrary library = new DocsLibrary(config(data, flags), () -> NOTHING)) {
      library.sync((d, t, m) -> {});
      DocsLibrary.SearchAnswer answer = library.search("ADD COLUMN", null, "web", 5);
      SearchHit hit = answer.hits().get(0);
      assertEquals("ALTER TABLE Statement", hit.pageTitle());
      assertEquals("docs/stable/sql/statements/alter_table", hit.path());
      assertTrue(hit.chunkId().startsWith("web:c"), hit.chunkId());
      assertEquals(
          "https://duckdb.org/docs/stable/sql/statements/alter_table#add-column", hit.url());
      assertEquals(List.of("web:stable"), answer.versions());
      DocsLibrary.PageInfo page =
          library.resolve("https://duckdb.org/docs/stable/sql/statements/alter_table");
      String content = library.content(page);
      assertTrue(content.startsWith("# ALTER TABLE Statement"), content);
      assertTrue(MarkdownPage.parse(content, "").sectionsNamed("ADD COLUMN").size() >= 1);
      assertNull(status(library, "web"));
    }
  }

  @Test
  void aDownloadedDatabaseIsRefreshedWhenStaleAndServedFromCacheOffline() throws Exception {
    Path data = Files.createTempDirectory("sonde-docs-");
    byte[] file =
        Files.readAllBytes(
            docsSearchDatabase(Files.createTempDirectory("src-").resolve("d.duckdb")));
    AtomicInteger requests = new AtomicInteger();
    AtomicInteger status = new AtomicInteger(200);
    String url =
        serve(
                req -> {
                  requests.incrementAndGet();
                  req.response().setStatusCode(status.get());
                  req.response().end(status.get() == 200 ? Buffer.buffer(file) : Buffer.buffer());
                })
            + "/data/docs-search.duckdb";
    Map<String, String> flags =
        Map.of("docs.sources.web.type", "duckdb", "docs.sources.web.url", url);
    Path cached = data.resolve("docs/web.duckdb");
    MutableClock clock = new MutableClock(Instant.now());
    try (DocsLibrary library = new DocsLibrary(config(data, flags), () -> NOTHING, clock)) {
      library.sync((d, t, m) -> {});
      assertEquals(1, requests.get());
      assertTrue(Files.isRegularFile(cached), String.valueOf(library.sources()));
      assertTrue(!found(library, "ADD COLUMN", "web").isEmpty());
      library.sync((d, t, m) -> {});
      assertEquals(1, requests.get(), "a fresh copy is not fetched again");

      clock.advance(Duration.ofDays(3).plusHours(1));
      status.set(503);
      library.sync((d, t, m) -> {});
      assertEquals(2, requests.get(), "a copy older than refreshHours is fetched again");
      DocsLibrary.SearchAnswer answer = library.search("ADD COLUMN", null, "web", 5);
      assertTrue(!answer.hits().isEmpty(), "the cached copy keeps serving");
      assertTrue(
          answer.notices().stream()
              .anyMatch(
                  n ->
                      n.startsWith("serving the cached copy of web downloaded 3 days ago")
                          && n.contains("HTTP 503")),
          answer.notices().toString());
      status.set(200);
      Files.setLastModifiedTime(cached, FileTime.from(clock.instant()));
    }
    Files.delete(cached);
    status.set(404);
    try (DocsLibrary library = new DocsLibrary(config(data, flags), () -> NOTHING, clock)) {
      library.sync((d, t, m) -> {});
      String state = status(library, "web");
      assertTrue(state.startsWith("the docs-search index of source web is unavailable"), state);
      assertTrue(state.contains("HTTP 404") && state.contains(url), state);
      assertTrue(
          library.search("ADD COLUMN", null, null, 5).notices().contains(state),
          "every search says a source is missing");
      assertTrue(library.catalogue("web", null).isEmpty(), "no copy, no pages");
    }
  }

  @Test
  void aDownloadThatStallsIsAbandonedAtItsTimeout() throws Exception {
    String stalling = serve(req -> req.response().setChunked(true).write("DUCK"));
    Path data = Files.createTempDirectory("sonde-docs-");
    Map<String, String> flags =
        Map.of(
            "docs.sources.web.type", "duckdb",
            "docs.sources.web.url", stalling + "/x.duckdb",
            "docs.downloadTimeoutSeconds", "1");
    try (DocsLibrary library = new DocsLibrary(config(data, flags), () -> NOTHING)) {
      library.sync((d, t, m) -> {});
      String state = status(library, "web");
      assertTrue(state.contains("the download took longer than 1 s"), state);
      try (Stream<Path> left = Files.list(data.resolve("docs"))) {
        assertEquals(List.of(), left.toList(), "no partial file is left behind");
      }
    }
  }

  private static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A local HTTP server answering with {@code handler}; returns its base URL. */
  private static String serve(Handler<HttpServerRequest> handler) throws Exception {
    HttpServer server =
        vertx
            .createHttpServer()
            .requestHandler(handler)
            .listen(0)
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    return "http://127.0.0.1:" + server.actualPort();
  }

  private static String status(DocsLibrary library, String source) {
    return library.sources().stream()
        .filter(s -> s.name().equals(source))
        .findFirst()
        .orElseThrow()
        .status();
  }

  private static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
