package dev.sonde.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.Language;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownPageTest {
  private static final String PAGE =
      """
      ---
      title: ALTER TABLE Statement
      redirect_from:
      - /docs/sql/statements/alter_table
      tags: ["ddl", "schema"]
      ---

      The `ALTER TABLE` statement changes a table.

      ## Examples

      ```sql
      -- # not a heading inside code
      ALTER TABLE integers ADD COLUMN k INTEGER;
      ```

      ## ADD COLUMN

      Adds a column.

      ### Defaults

      ```python
      con.sql("ALTER TABLE t ADD COLUMN d INTEGER DEFAULT 10")
      ```

      ## DROP COLUMN

      Drops a column.

      ## Examples
      Again.
      """;

  @Test
  void frontMatterGivesTitleRedirectsAndKeywords() {
    MarkdownPage page = MarkdownPage.parse(PAGE, "fallback");
    assertEquals("ALTER TABLE Statement", page.title());
    assertEquals(List.of("/docs/sql/statements/alter_table"), page.redirects());
    assertEquals(List.of("ddl", "schema"), page.keywords());
    assertTrue(!page.body().contains("redirect_from"), "front matter is not body text");
  }

  @Test
  void headingsInsideCodeAreCodeAndAnchorsAreUnique() {
    MarkdownPage page = MarkdownPage.parse(PAGE, "fallback");
    List<String> headings = page.sections().stream().map(MarkdownPage.Section::heading).toList();
    assertEquals(
        List.of("", "Examples", "ADD COLUMN", "Defaults", "DROP COLUMN", "Examples"), headings);
    assertEquals("examples", page.sections().get(1).anchor());
    assertEquals("examples-1", page.sections().get(5).anchor());
    assertEquals("add-column", page.sections().get(2).anchor());
    assertEquals(List.of("ADD COLUMN"), page.sections().get(3).trail());
    assertEquals(2, page.codeBlocks().size());
    assertEquals("sql", page.codeBlocks().get(0).language());
    assertTrue(page.codeBlocks().get(0).code().contains("-- # not a heading inside code"));
    assertTrue(
        !page.sections().get(1).prose().contains("ALTER TABLE integers"), "code is not prose");
  }

  @Test
  void aNamedSectionComesWithItsSubsectionsOnly() {
    MarkdownPage page = MarkdownPage.parse(PAGE, "fallback");
    List<MarkdownPage.Section> add = page.sectionsNamed("add column");
    assertEquals(
        List.of("ADD COLUMN", "Defaults"),
        add.stream().map(MarkdownPage.Section::heading).toList());
    assertEquals(2, page.sectionsNamed("EXAMPLES").size());
    assertTrue(page.sectionsNamed("no such heading").isEmpty());
  }

  @Test
  void withoutFrontMatterTheFirstH1IsTheTitleAndAnUnclosedFenceIsKept() {
    MarkdownPage page = MarkdownPage.parse("# Guide\n\nText\n\n```sql\nSELECT 1;\n", "fallback");
    assertEquals("Guide", page.title());
    assertEquals("SELECT 1;", page.codeBlocks().get(0).code());
    assertEquals("fallback", MarkdownPage.parse("no headings at all", "fallback").title());
  }

  @Test
  void chunksCarryStableIdsBreadcrumbsAndUrls() {
    DocPage page =
        DocPage.fromMarkdown(
            "duckdb",
            "stable/sql/statements/alter_table.md",
            "sql/statements/alter_table.md",
            "stable",
            "https://duckdb.org/docs/stable/sql/statements/alter_table",
            PAGE,
            "x");
    DocChunk add = page.chunks().get(2);
    assertEquals("duckdb:stable/sql/statements/alter_table.md#add-column", add.chunkId());
    assertEquals("SQL › Statements › ALTER TABLE Statement › ADD COLUMN", add.breadcrumb());
    assertEquals("https://duckdb.org/docs/stable/sql/statements/alter_table#add-column", add.url());
    assertEquals(Language.EN, page.language());
    assertEquals(List.of("ddl", "schema"), page.keywords());
  }

  @Test
  void languageFollowsTheDominantScript() {
    assertEquals(Language.ZH, Language.detect("`ALTER TABLE` 语句用于更改目录中现有表的模式。"));
    assertEquals(Language.JA, Language.detect("テーブルに列を追加する方法を説明します"));
    assertEquals(Language.KO, Language.detect("테이블에 열을 추가하는 방법"));
    assertEquals(
        Language.EN, Language.detect("The function returns the first value of each group (注)."));
  }
}
