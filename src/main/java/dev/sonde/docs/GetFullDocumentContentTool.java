package dev.sonde.docs;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A document, or only the sections named by a heading keyword (never cut). A document larger than
 * {@code docs.maxDocumentChars} asked for whole answers with its section list instead.
 */
final class GetFullDocumentContentTool extends DocsTool {
  private static final Arg<String> SECTION =
      Arg.string("section", "A heading keyword; only the matching sections are returned");

  private final int maxChars;

  GetFullDocumentContentTool(DocsLibrary library, int maxChars) {
    super(
        library,
        ToolSpec.builder("get_full_document_content")
            .title("Read a document")
            .description(
                "The Markdown of one document. With section (a heading keyword such as ADD"
                    + " COLUMN), only the sections whose heading contains it, each with its"
                    + " sub-sections, never truncated. A document longer than "
                    + maxChars
                    + " characters asked for without section returns its section list to choose"
                    + " from instead of a cut-off text.")
            .input(DOCUMENT, SECTION)
            .output(Schemas.result("key", "string")));
    this.maxChars = maxChars;
  }

  @Override
  JsonObject answer(ToolContext ctx) throws IOException {
    Opened doc = open(ctx.arg(DOCUMENT));
    String section = optional(ctx.arg(SECTION));
    JsonObject out = doc.head();
    if (section != null) {
      List<MarkdownPage.Section> matched = doc.page().sectionsNamed(section);
      if (matched.isEmpty()) {
        throw fail(
            "no section of "
                + doc.info().key()
                + " has '"
                + section
                + "' in its heading; its headings are "
                + headings(doc.page(), 60));
      }
      return out.put("section", section)
          .put(
              "sections_matched",
              new JsonArray(
                  matched.stream()
                      .filter(s -> s.level() > 0)
                      .map(MarkdownPage.Section::heading)
                      .toList()))
          .put(
              "content",
              matched.stream().map(MarkdownPage.Section::text).collect(Collectors.joining("\n\n")));
    }
    if (doc.content().length() > maxChars) {
      JsonArray sections = new JsonArray();
      for (MarkdownPage.Section s : doc.page().sections()) {
        if (s.level() > 0) {
          sections.add(
              new JsonObject()
                  .put("heading", s.heading())
                  .put("level", s.level())
                  .put("chars", s.text().length()));
        }
      }
      return out.put("chars", doc.content().length())
          .put("sections", sections)
          .put(
              "message",
              "this document has "
                  + doc.content().length()
                  + " characters, more than the "
                  + maxChars
                  + " returned whole; call again with section set to one of these headings"
                  + " (or a word from it)");
    }
    return out.put("chars", doc.content().length()).put("content", doc.content());
  }

  static List<String> headings(MarkdownPage page, int limit) {
    return page.sections().stream()
        .filter(s -> s.level() > 0)
        .map(MarkdownPage.Section::heading)
        .limit(limit)
        .toList();
  }
}
