package dev.sonde.docs;

import static io.vertx.json.schema.common.dsl.Keywords.maxLength;
import static io.vertx.json.schema.common.dsl.Keywords.minLength;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;

/** BM25 search over section-level chunks, with version selection and step-by-step broadening. */
final class SearchDocumentsTool extends DocsTool {
  private static final Arg<String> KEYWORD =
      Arg.string("keyword", "Keywords or a question", minLength(1), maxLength(1000)).required();
  private static final Arg<String> VERSION =
      Arg.string(
          "version",
          "Version label (stable, preview, blog, ...); current for each source's default (the"
              + " default), all when unsure");
  private static final Arg<String> SOURCE =
      Arg.string("source", "Only this source (list_available_documents names them)");
  private static final Arg<Integer> LIMIT =
      Arg.integer("limit", "How many sections to return", 1, 50).orElse(8);

  SearchDocumentsTool(DocsLibrary library) {
    super(
        library,
        ToolSpec.builder("search_documents")
            .title("Search documentation")
            .description(
                "Ranked sections of the documentation (Sonde's manual and every configured source)"
                    + " for a keyword or a question in English, Chinese, Japanese or Korean: each"
                    + " with chunk_id, page_title, section, breadcrumb, url, version, path, a"
                    + " highlighted snippet and a BM25 score, best first. The question is reduced to"
                    + " its technical terms (function names such as arg_max, keywords such as GROUP"
                    + " BY ALL and quoted phrases stay whole); when no section has every term the"
                    + " search broadens and says so, and when nothing matches it suggests the"
                    + " closest titles. Then read a section with get_full_document_content.")
            .input(KEYWORD, VERSION, SOURCE, LIMIT)
            .output(Schemas.result("results", "array", "count", "integer")));
  }

  @Override
  JsonObject answer(ToolContext ctx) throws IOException {
    DocsLibrary.SearchAnswer answer =
        library.search(
            ctx.arg(KEYWORD),
            optional(ctx.arg(VERSION)),
            optional(ctx.arg(SOURCE)),
            ctx.arg(LIMIT));
    JsonArray results = new JsonArray();
    for (SearchHit hit : answer.hits()) {
      results.add(
          new JsonObject()
              .put("chunk_id", hit.chunkId())
              .put("page_title", hit.pageTitle())
              .put("section", hit.section())
              .put("breadcrumb", hit.breadcrumb())
              .put("url", hit.url())
              .put("version", hit.version())
              .put("source", hit.source())
              .put("path", hit.path())
              .put("file_identifier", hit.key())
              .put("snippet", hit.snippet())
              .put("score", hit.score())
              .put("matched", new JsonArray(hit.matched())));
    }
    JsonObject out =
        new JsonObject()
            .put("results", results)
            .put("count", results.size())
            .put("terms", new JsonArray(answer.terms()))
            .put("versions_searched", new JsonArray(answer.versions()));
    if (!answer.notices().isEmpty()) {
      out.put("notices", new JsonArray(answer.notices()));
    }
    if (!answer.suggestions().isEmpty()) {
      JsonArray suggestions = new JsonArray();
      answer
          .suggestions()
          .forEach(
              p ->
                  suggestions.add(
                      new JsonObject()
                          .put("file_identifier", p.key())
                          .put("title", p.title())
                          .put("version", p.version())
                          .put("url", p.url())));
      out.put("suggestions", suggestions);
    }
    return out;
  }
}
