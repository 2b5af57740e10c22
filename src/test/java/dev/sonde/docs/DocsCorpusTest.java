package dev.sonde.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.CallerException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Search, versions, broadening and lookup over the real DuckDB corpus (stable, preview, blog, zh).
 */
class DocsCorpusTest {
  static DocsLibrary library;

  @BeforeAll
  static void index() throws Exception {
    Assumptions.assumeTrue(CorpusDocs.available(), "../shared/corpora/duckdb-docs is not here");
    library = CorpusDocs.library(Files.createTempDirectory("sonde-docs-"));
    DocsLibrary.SyncReport report = library.sync((done, total, message) -> {});
    assertTrue(report.indexed() > 1200, report.toString());
  }

  @AfterAll
  static void close() throws Exception {
    if (library != null) {
      library.close();
    }
  }

  private static List<String> paths(DocsLibrary.SearchAnswer answer) {
    return answer.hits().stream().map(SearchHit::path).toList();
  }

  @Test
  void aFunctionNameFindsItsSectionWithAHighlightedSnippet() throws Exception {
    DocsLibrary.SearchAnswer answer = library.search("arg_max", null, "duckdb", 8);
    SearchHit hit =
        answer.hits().stream()
            .filter(h -> h.path().equals("stable/sql/functions/aggregates.md"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(paths(answer).toString()));
    assertTrue(hit.section().startsWith("arg_max"), hit.section());
    assertTrue(hit.snippet().contains("**arg_max**"), hit.snippet());
    assertEquals(
        "https://duckdb.org/docs/stable/sql/functions/aggregates#arg_maxarg-val", hit.url());
    assertEquals("duckdb:stable/sql/functions/aggregates.md#arg_maxarg-val", hit.chunkId());
    assertTrue(
        hit.breadcrumb().startsWith("SQL › Functions › Aggregate Functions"), hit.breadcrumb());
  }

  @Test
  void withoutAVersionEachSourceIsSearchedInItsDefault() throws Exception {
    DocsLibrary.SearchAnswer answer = library.search("ALTER TABLE ADD COLUMN", null, null, 20);
    assertFalse(answer.hits().isEmpty());
    assertTrue(
        answer.hits().stream()
            .allMatch(h -> h.version().equals("stable") || h.source().equals("sonde")),
        paths(answer).toString());
    assertEquals("stable/sql/statements/alter_table.md", answer.hits().get(0).path());
    assertTrue(answer.versions().contains("duckdb:stable"), answer.versions().toString());
  }

  @Test
  void versionLabelsAndAliasesSelectWhatIsSearched() throws Exception {
    assertTrue(
        library.search("ALTER TABLE", "preview", "duckdb", 10).hits().stream()
            .allMatch(h -> h.path().startsWith("preview/")));
    assertTrue(
        library.search("ALTER TABLE", "nightly", "duckdb", 10).hits().stream()
            .allMatch(h -> h.path().startsWith("preview/")));
    List<SearchHit> upper = library.search("ALTER TABLE", "Preview", "duckdb", 10).hits();
    assertTrue(!upper.isEmpty() && upper.stream().allMatch(h -> h.version().equals("preview")));
    List<String> blog = paths(library.search("full text search", "blog", "duckdb", 5));
    assertTrue(blog.subList(0, 3).contains("blog/2021-01-25-full-text-search.md"), blog.toString());
    List<SearchHit> all = library.search("ALTER TABLE", "all", "duckdb", 50).hits();
    assertTrue(all.stream().anyMatch(h -> h.version().equals("preview")));
    assertTrue(all.stream().anyMatch(h -> h.version().equals("stable")));
    CallerException unknown =
        assertThrows(CallerException.class, () -> library.search("x", "v9", "duckdb", 5));
    assertTrue(unknown.getMessage().contains("[blog, preview, stable]"), unknown.getMessage());
    CallerException source =
        assertThrows(CallerException.class, () -> library.search("x", null, "nope", 5));
    assertTrue(source.getMessage().contains("[sonde, duckdb]"), source.getMessage());
  }

  @Test
  void whenNoSectionHasEveryTermTheSearchBroadensAndSaysSo() throws Exception {
    DocsLibrary.SearchAnswer answer =
        library.search("QUALIFY zzqxunknownword", "stable", "duckdb", 5);
    assertFalse(answer.hits().isEmpty());
    assertTrue(
        answer.notices().stream().anyMatch(n -> n.startsWith("no section contains all of")),
        answer.notices().toString());
    assertEquals(List.of("QUALIFY"), answer.hits().get(0).matched());
  }

  @Test
  void whenNothingMatchesTheClosestTitlesAreSuggested() throws Exception {
    DocsLibrary.SearchAnswer answer = library.search("Pivott statment", "stable", "duckdb", 5);
    assertTrue(answer.hits().isEmpty(), paths(answer).toString());
    assertTrue(
        answer.suggestions().stream().anyMatch(p -> p.title().contains("PIVOT")),
        answer.suggestions().toString());
    assertTrue(answer.notices().stream().anyMatch(n -> n.startsWith("nothing matched")));
  }

  @Test
  void aChineseQuestionFindsChinesePagesAndAnEnglishKeywordStillDoes() throws Exception {
    List<String> windows = paths(library.search("窗口函数", null, "duckdb", 5));
    assertEquals("stable-zh/sql/functions/window_functions.md", windows.get(0), windows.toString());
    List<String> mixed = paths(library.search("ALTER TABLE 添加列", null, "duckdb", 5));
    assertEquals("stable-zh/sql/statements/alter_table.md", mixed.get(0), mixed.toString());
    List<String> english = paths(library.search("ALTER TABLE", null, "duckdb", 40));
    assertTrue(english.contains("stable-zh/sql/statements/alter_table.md"), english.toString());
    assertEquals("stable/sql/statements/alter_table.md", english.get(0), english.toString());
  }

  @Test
  void documentsAreFoundByKeyUriUrlOrTitleAndAmbiguityIsExplained() {
    assertEquals(
        "duckdb/stable/sql/statements/alter_table.md",
        library.resolve("https://duckdb.org/docs/stable/sql/statements/alter_table").key());
    assertEquals(
        "duckdb/blog/2021-01-25-full-text-search.md",
        library.resolve("https://duckdb.org/2021/01/25/full-text-search.html").key());
    assertEquals(
        "duckdb/stable-zh/sql/statements/alter_table.md",
        library.resolve("sonde://docs/duckdb/stable-zh/sql/statements/alter_table.md").key());
    assertEquals(
        "duckdb/preview/sql/statements/alter_table.md",
        library.resolve("preview/sql/statements/alter_table").key());
    CallerException ambiguous =
        assertThrows(CallerException.class, () -> library.resolve("sql/statements/alter_table.md"));
    assertTrue(ambiguous.getMessage().contains("duckdb/stable/sql/statements/alter_table.md"));
    CallerException missing =
        assertThrows(
            CallerException.class, () -> library.resolve("stable/sql/statements/alter_tabel"));
    assertTrue(missing.getMessage().contains("alter_table"), missing.getMessage());
  }

  @Test
  void theCatalogueListsVersionsLanguagesAndKeywords() {
    List<DocsLibrary.PageInfo> blog = library.catalogue("duckdb", "blog");
    assertEquals(103, blog.size());
    DocsLibrary.PageInfo fts =
        blog.stream().filter(p -> p.path().contains("full-text-search")).findFirst().orElseThrow();
    assertEquals(List.of("extensions"), fts.keywords());
    assertEquals(
        "zh", library.resolve("duckdb/stable-zh/sql/statements/alter_table.md").language());
    assertEquals(367 + 366, library.catalogue("duckdb", "stable").size());
    DocsLibrary.SourceInfo duckdb =
        library.sources().stream().filter(s -> s.name().equals("duckdb")).findFirst().orElseThrow();
    assertEquals(java.util.Set.of("stable"), duckdb.defaultVersions());
  }

  @Test
  void relevanceStaysAboveItsFloor() throws Exception {
    List<RelevanceSet.Question> questions = RelevanceSet.load();
    assertTrue(questions.stream().filter(q -> !q.cjk()).count() >= 40);
    assertTrue(questions.stream().filter(RelevanceSet.Question::cjk).count() >= 15);
    RelevanceSet.Score english =
        RelevanceSet.score(questions, q -> !q.cjk(), RelevanceSet.sonde(library));
    RelevanceSet.Score cjk =
        RelevanceSet.score(questions, RelevanceSet.Question::cjk, RelevanceSet.sonde(library));
    // measured 0.839 and 0.717 when written; the floors catch a regression, not noise
    assertTrue(english.mrr10() >= 0.80, english.toString());
    assertTrue(cjk.mrr10() >= 0.65, cjk.toString());
  }

  @Test
  void manualPagesAreAlwaysThere() throws Exception {
    DocsLibrary.PageInfo tools = library.resolve("sonde/reference/tools.md");
    assertEquals("current", tools.version());
    assertTrue(library.content(tools).contains("# Tool reference"));
  }
}
