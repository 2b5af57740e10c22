package dev.sonde.docs;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** The catalogue: every document with its source, version and keywords, a page at a time. */
final class ListAvailableDocumentsTool extends DocsTool {
  private static final Arg<String> SOURCE = Arg.string("source", "Only this source");
  private static final Arg<String> VERSION =
      Arg.string("version", "Only this version label; current for each source's default");
  private static final Arg<Integer> OFFSET =
      Arg.integer("offset", "Where the page starts", 0, 10_000_000).orElse(0);
  private static final Arg<Integer> LIMIT =
      Arg.integer("limit", "Documents per page", 1, 500).orElse(100);

  ListAvailableDocumentsTool(DocsLibrary library) {
    super(
        library,
        ToolSpec.builder("list_available_documents")
            .title("List documents")
            .description(
                "The documentation Sonde can search: each document's file_identifier, path,"
                    + " title, source, version, language, URL and keywords, plus the sources with"
                    + " their versions and state. Paginated: pass next_offset back as offset.")
            .input(SOURCE, VERSION, OFFSET, LIMIT)
            .output(Schemas.result("documents", "array", "total", "integer")));
  }

  @Override
  JsonObject answer(ToolContext ctx) {
    List<DocsLibrary.PageInfo> pages =
        library.catalogue(optional(ctx.arg(SOURCE)), optional(ctx.arg(VERSION)));
    int offset = Math.min(ctx.arg(OFFSET), pages.size());
    int limit = ctx.arg(LIMIT);
    JsonArray documents = new JsonArray();
    for (DocsLibrary.PageInfo p : pages.subList(offset, Math.min(pages.size(), offset + limit))) {
      documents.add(
          new JsonObject()
              .put("file_identifier", p.key())
              .put("path", p.path())
              .put("title", p.title())
              .put("source", p.source())
              .put("version", p.version())
              .put("language", p.language())
              .put("url", p.url())
              .put("uri", p.uri())
              .put("keywords", new JsonArray(p.keywords()))
              .put("chars", p.chars()));
    }
    JsonArray sources = new JsonArray();
    for (DocsLibrary.SourceInfo s : library.sources()) {
      JsonObject source =
          new JsonObject()
              .put("name", s.name())
              .put("description", s.description())
              .put("versions", new JsonArray(List.copyOf(s.versions())))
              .put("default_versions", new JsonArray(List.copyOf(s.defaultVersions())))
              .put("documents", s.pages());
      if (s.status() != null) {
        source.put("status", s.status());
      }
      sources.add(source);
    }
    JsonObject out =
        new JsonObject()
            .put("documents", documents)
            .put("total", pages.size())
            .put("offset", offset)
            .put("sources", sources);
    if (offset + documents.size() < pages.size()) {
      out.put("next_offset", offset + documents.size());
    }
    return out;
  }
}
