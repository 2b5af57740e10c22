package dev.sonde.docs;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The document split by its headings, optionally only the sections whose heading or text contains a
 * filter. Texts are returned until {@code docs.maxDocumentChars}; later sections give headings.
 */
final class GetDocumentSectionsTool extends DocsTool {
  private static final Arg<String> FILTER =
      Arg.string("section_filter", "Keep only sections whose heading or text contains this");

  private final int maxChars;

  GetDocumentSectionsTool(DocsLibrary library, int maxChars) {
    super(
        library,
        ToolSpec.builder("get_document_sections")
            .title("Document sections")
            .description(
                "One document split by its headings: each section's index, level, heading,"
                    + " anchor, heading trail and text. With section_filter, only the sections whose"
                    + " heading or text contains it (any case). Texts stop after "
                    + maxChars
                    + " characters; the sections after that are listed by heading.")
            .input(DOCUMENT, FILTER)
            .output(Schemas.result("sections", "array")));
    this.maxChars = maxChars;
  }

  @Override
  JsonObject answer(ToolContext ctx) throws IOException {
    Opened doc = open(ctx.arg(DOCUMENT));
    String filter = optional(ctx.arg(FILTER));
    String wanted = filter == null ? null : filter.toLowerCase(Locale.ROOT);
    List<MarkdownPage.Section> kept = new ArrayList<>();
    for (MarkdownPage.Section s : doc.page().sections()) {
      if (wanted == null
          || s.heading().toLowerCase(Locale.ROOT).contains(wanted)
          || s.text().toLowerCase(Locale.ROOT).contains(wanted)) {
        kept.add(s);
      }
    }
    JsonArray sections = new JsonArray();
    int budget = maxChars;
    int omitted = 0;
    for (MarkdownPage.Section s : kept) {
      JsonObject section =
          new JsonObject()
              .put("index", s.index())
              .put("level", s.level())
              .put("heading", s.level() == 0 ? doc.info().title() : s.heading())
              .put("anchor", s.anchor())
              .put("trail", new JsonArray(s.trail()));
      if (s.text().length() <= budget) {
        section.put("text", s.text());
        budget -= s.text().length();
      } else {
        section.put("chars", s.text().length());
        omitted++;
      }
      sections.add(section);
    }
    JsonObject out =
        doc.head()
            .put("sections", sections)
            .put("count", sections.size())
            .put("total_sections", doc.page().sections().size());
    if (filter != null) {
      out.put("section_filter", filter);
    }
    if (omitted > 0) {
      out.put(
          "message",
          omitted
              + " section(s) are listed without text to stay under "
              + maxChars
              + " characters; read one with get_full_document_content and its heading as section,"
              + " or narrow section_filter");
    }
    return out;
  }
}
