package dev.sonde.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.ToolCalls;
import dev.sonde.tools.FamilyVerticle;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The docs tools and resources through MCP over HTTP, on part of the DuckDB corpus. */
class DocsToolsTest {
  static InProcessSonde sonde;
  static HttpMcpClient client;
  static ToolCalls tools;
  static long ids = 90_000;

  @BeforeAll
  static void start() throws Exception {
    Assumptions.assumeTrue(CorpusDocs.available(), "../shared/corpora/duckdb-docs is not here");
    Map<String, String> flags =
        new HashMap<>(CorpusDocs.flags(Files.createTempDirectory("sonde-docs-")));
    flags.put(
        "docs.sources.duckdb.include",
        "stable/sql/**,stable-zh/sql/**,preview/sql/statements/**,blog/2021-*");
    sonde = new InProcessSonde(flags);
    client = new HttpMcpClient(sonde.port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  @AfterAll
  static void stop() {
    if (sonde != null) {
      client.close();
      sonde.close();
    }
  }

  /** A docs tool on one document, with at most one more argument (null for none). */
  static JsonObject document(String identifier, String argument, String value) {
    JsonObject args = new JsonObject().put("file_identifier", identifier);
    return argument == null ? args : args.put(argument, value);
  }

  static JsonObject okOnDocument(String tool, String identifier, String argument, String value) {
    return tools.ok(tool, document(identifier, argument, value));
  }

  static String refusedOnDocument(String tool, String identifier, String argument, String value) {
    return tools.refused(tool, document(identifier, argument, value));
  }

  static JsonObject request(String method, JsonObject params) {
    return client.request(ids++, method, params).getJsonObject("result");
  }

  @Test
  void theFiveToolsAreListedReadOnly() {
    JsonArray listed = request("tools/list", null).getJsonArray("tools");
    for (String name :
        List.of(
            "list_available_documents",
            "search_documents",
            "get_full_document_content",
            "get_document_sections",
            "extract_code_blocks")) {
      JsonObject tool =
          listed.stream()
              .map(JsonObject.class::cast)
              .filter(t -> t.getString("name").equals(name))
              .findFirst()
              .orElseThrow(() -> new AssertionError(name + " is not listed"));
      assertTrue(tool.getJsonObject("annotations").getBoolean("readOnlyHint"), name);
    }
  }

  @Test
  void searchReturnsRankedSectionsWithEverythingAnAgentNeeds() {
    JsonObject answer =
        tools.ok("search_documents", new JsonObject().put("keyword", "How do I use arg_max?"));
    assertEquals(new JsonArray().add("arg_max"), answer.getJsonArray("terms"));
    JsonObject first = answer.getJsonArray("results").getJsonObject(0);
    for (String key :
        List.of(
            "chunk_id",
            "page_title",
            "section",
            "breadcrumb",
            "url",
            "version",
            "path",
            "snippet",
            "score",
            "file_identifier")) {
      assertTrue(first.containsKey(key), key + " in " + first.encode());
    }
    assertEquals("stable/sql/functions/aggregates.md", first.getString("path"));
    assertTrue(first.getString("snippet").contains("**arg_max**"), first.encode());
    assertTrue(answer.getInteger("count") <= 8);
    JsonObject chinese =
        tools.ok("search_documents", new JsonObject().put("keyword", "窗口函数").put("limit", 3));
    assertTrue(
        chinese.getJsonArray("results").getJsonObject(0).getString("path").startsWith("stable-zh/"),
        chinese.encode());
    String refused =
        tools.refused(
            "search_documents", new JsonObject().put("keyword", "x").put("version", "v9"));
    assertTrue(refused.contains("no version 'v9'") && refused.contains("preview"), refused);
    JsonObject none =
        tools.ok("search_documents", new JsonObject().put("keyword", "Pivott statment"));
    assertEquals(0, none.getInteger("count"));
    assertFalse(none.getJsonArray("suggestions").isEmpty(), none.encode());
  }

  @Test
  void aSectionIsReturnedWholeAndALargeDocumentOffersItsSections() {
    JsonObject add =
        okOnDocument(
            "get_full_document_content",
            "duckdb/stable/sql/statements/alter_table.md",
            "section",
            "add column");
    String content = add.getString("content");
    assertTrue(
        content.startsWith("## `ADD COLUMN`") || content.startsWith("## ADD COLUMN"), content);
    assertFalse(content.contains("## `DROP COLUMN`"), content);
    JsonObject large =
        okOnDocument(
            "get_full_document_content", "duckdb/stable/sql/functions/aggregates.md", null, null);
    assertFalse(large.containsKey("content"), "a large document is not cut");
    assertTrue(large.getInteger("chars") > 20_000);
    assertTrue(large.getString("message").contains("call again with section"));
    assertTrue(
        large.getJsonArray("sections").stream()
            .anyMatch(s -> ((JsonObject) s).getString("heading").startsWith("arg_max")));
    JsonObject argMax =
        okOnDocument(
            "get_full_document_content",
            "https://duckdb.org/docs/stable/sql/functions/aggregates",
            "section",
            "arg_max(arg, val)");
    assertTrue(argMax.getString("content").contains("Finds the row with the maximum"));
    String missing =
        refusedOnDocument(
            "get_full_document_content",
            "duckdb/stable/sql/statements/alter_table.md",
            "section",
            "no such heading");
    assertTrue(missing.contains("its headings are [") && missing.contains("ADD COLUMN"), missing);
    String unknown = refusedOnDocument("get_full_document_content", "nope/none.md", null, null);
    assertTrue(unknown.startsWith("no document 'nope/none.md'; the closest are"), unknown);
  }

  @Test
  void sectionsAreFilteredAndCodeBlocksNumbered() {
    JsonObject sections =
        okOnDocument(
            "get_document_sections",
            "duckdb/stable/sql/statements/alter_table.md",
            "section_filter",
            "default");
    JsonArray list = sections.getJsonArray("sections");
    assertFalse(list.isEmpty());
    assertTrue(sections.getInteger("total_sections") > list.size());
    for (Object o : list) {
      JsonObject s = (JsonObject) o;
      assertTrue(
          (s.getString("heading") + s.getString("text")).toLowerCase().contains("default"),
          s.encode());
    }
    JsonObject code =
        okOnDocument(
            "extract_code_blocks",
            "duckdb/stable/sql/statements/alter_table.md",
            "language",
            "SQL");
    JsonArray blocks = code.getJsonArray("blocks");
    assertTrue(blocks.size() > 5);
    int previous = 0;
    for (Object o : blocks) {
      JsonObject b = (JsonObject) o;
      assertEquals("sql", b.getString("language"));
      assertTrue(b.getInteger("index") > previous);
      previous = b.getInteger("index");
    }
    assertTrue(blocks.getJsonObject(1).getString("code").contains("ADD COLUMN"), blocks.encode());
    assertEquals(blocks.size(), code.getJsonObject("languages").getInteger("sql"));
    JsonObject none =
        okOnDocument(
            "extract_code_blocks",
            "duckdb/stable/sql/statements/alter_table.md",
            "language",
            "cobol");
    assertEquals(0, none.getInteger("count"));
    assertTrue(none.getString("message").contains("[console, sql]"), none.encode());
  }

  @Test
  void theCatalogueIsPaginatedAndNamesItsSources() {
    JsonObject page =
        tools.ok(
            "list_available_documents",
            new JsonObject().put("source", "duckdb").put("version", "stable").put("limit", 5));
    assertEquals(5, page.getJsonArray("documents").size());
    assertEquals(5, page.getInteger("next_offset"));
    int total = page.getInteger("total");
    JsonObject last =
        tools.ok(
            "list_available_documents",
            new JsonObject()
                .put("source", "duckdb")
                .put("version", "stable")
                .put("offset", total - 2)
                .put("limit", 5));
    assertEquals(2, last.getJsonArray("documents").size());
    assertFalse(last.containsKey("next_offset"));
    JsonObject duckdb =
        page.getJsonArray("sources").stream()
            .map(JsonObject.class::cast)
            .filter(s -> s.getString("name").equals("duckdb"))
            .findFirst()
            .orElseThrow();
    assertEquals(
        new JsonArray().add("blog").add("preview").add("stable"), duckdb.getJsonArray("versions"));
    assertEquals(new JsonArray().add("stable"), duckdb.getJsonArray("default_versions"));
  }

  @Test
  void eachDocumentIsAResourceWithCompletion() {
    JsonArray templates =
        request("resources/templates/list", null).getJsonArray("resourceTemplates");
    assertTrue(
        templates.stream()
            .anyMatch(
                t ->
                    "sonde://docs/{source}/{path}"
                        .equals(((JsonObject) t).getString("uriTemplate"))));
    JsonObject read =
        request(
            "resources/read",
            new JsonObject()
                .put("uri", "sonde://docs/duckdb/stable/sql/statements/alter_table.md"));
    JsonObject contents = read.getJsonArray("contents").getJsonObject(0);
    assertEquals("text/markdown", contents.getString("mimeType"));
    assertTrue(contents.getString("text").contains("title: ALTER TABLE Statement"));
    JsonArray values =
        request(
                "completion/complete",
                new JsonObject()
                    .put(
                        "ref",
                        new JsonObject()
                            .put("type", "ref/resource")
                            .put("uri", "sonde://docs/{source}/{path}"))
                    .put(
                        "argument",
                        new JsonObject()
                            .put("name", "path")
                            .put("value", "stable/sql/statements/alter"))
                    .put(
                        "context",
                        new JsonObject()
                            .put("arguments", new JsonObject().put("source", "duckdb"))))
            .getJsonObject("completion")
            .getJsonArray("values");
    assertTrue(values.contains("stable/sql/statements/alter_table.md"), values.encode());
  }

  @Test
  void aLargeIndexBuildIsAJobWithProgressSteps() {
    tools.ok("search_documents", new JsonObject().put("keyword", "ALTER TABLE"));
    dev.sonde.jobs.Job build =
        sonde.sonde().jobs().list().stream()
            .filter(j -> j.tool().equals("docs_index"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no docs_index job"));
    assertEquals(dev.sonde.jobs.JobStatus.SUCCEEDED, build.status());
    List<dev.sonde.jobs.JobEvent> steps =
        build.eventsAfter(0).stream().filter(e -> "index".equals(e.step())).toList();
    assertTrue(steps.size() >= 3, steps.toString());
    assertTrue(
        steps.get(steps.size() - 1).message().matches("indexed (\\d+) of \\1 pages"),
        steps.toString());
  }

  @Test
  void aSyncThatChangesPagesTellsClientsTheResourceListChanged() throws Exception {
    io.vertx.core.Vertx vertx = sonde.sonde().vertx();
    java.nio.file.Path data = Files.createTempDirectory("sonde-docs-");
    java.nio.file.Path folder = Files.createTempDirectory("handbook-");
    Files.writeString(folder.resolve("a.md"), "# A\n\nText.\n");
    Map<String, String> flags = new HashMap<>();
    flags.put("data.dir", data.toString());
    flags.put("docs.sources.handbook.path", folder.toString());
    try (dev.sonde.docs.DocsLibrary library =
        new dev.sonde.docs.DocsLibrary(
            dev.sonde.config.ConfigLoader.load(null, Map.of(), flags), () -> "# Tools\n")) {
      DocsIndexing indexing =
          new DocsIndexing(
              vertx, library, sonde.sonde().jobs(), FamilyVerticle.pool(vertx, "docs", 2));
      try (HttpMcpClient listener = new HttpMcpClient(sonde.port())) {
        listener.initialize("2025-11-25");
        HttpMcpClient.GetStream stream = listener.openGetStream();
        await(indexing.syncNow());
        stream.await("notifications/resources/list_changed", java.time.Duration.ofSeconds(10));
        int seen = count(stream);
        await(indexing.syncNow());
        Thread.sleep(300);
        assertEquals(seen, count(stream), "nothing changed, nothing sent");
        Files.writeString(folder.resolve("b.md"), "# B\n\nMore.\n");
        await(indexing.syncNow());
        long deadline = System.currentTimeMillis() + 10_000;
        while (count(stream) == seen && System.currentTimeMillis() < deadline) {
          Thread.sleep(20);
        }
        assertEquals(seen + 1, count(stream));
        stream.close();
      }
    }
  }

  private static int count(HttpMcpClient.GetStream stream) {
    return (int)
        stream.seen().stream()
            .filter(m -> "notifications/resources/list_changed".equals(m.getString("method")))
            .count();
  }

  private static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return future
        .toCompletionStage()
        .toCompletableFuture()
        .get(60, java.util.concurrent.TimeUnit.SECONDS);
  }

  @Test
  void theManualsToolReferenceIsGeneratedFromTheListedTools() {
    JsonObject reference =
        okOnDocument(
            "get_full_document_content", "sonde/reference/tools.md", "section", "search_documents");
    assertTrue(
        reference.getString("content").contains("| `keyword` | string | yes |"),
        reference.encode());
    JsonObject found =
        tools.ok(
            "search_documents",
            new JsonObject().put("keyword", "schedule recurring queries").put("source", "sonde"));
    assertEquals(
        "howto/schedule-recurring-queries.md",
        found.getJsonArray("results").getJsonObject(0).getString("path"));
  }
}
