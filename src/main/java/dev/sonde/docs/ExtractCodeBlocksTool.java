package dev.sonde.docs;

import dev.sonde.tools.Arg;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Every fenced code block of a document, numbered in document order, with language and section. */
final class ExtractCodeBlocksTool extends DocsTool {
  private static final Arg<String> LANGUAGE =
      Arg.string("language", "Only blocks fenced with this language (any case)");

  ExtractCodeBlocksTool(DocsLibrary library) {
    super(
        library,
        ToolSpec.builder("extract_code_blocks")
            .title("Code blocks of a document")
            .description(
                "Every fenced code block of one document, numbered from 1 in document order, with"
                    + " its language and the section it is in; with language (sql, python, bash,"
                    + " ...), only those. The answer also counts the blocks per language.")
            .input(DOCUMENT, LANGUAGE)
            .output(Schemas.result("blocks", "array")));
  }

  @Override
  JsonObject answer(ToolContext ctx) throws IOException {
    Opened doc = open(ctx.arg(DOCUMENT));
    String language = optional(ctx.arg(LANGUAGE));
    String wanted = language == null ? null : language.toLowerCase(Locale.ROOT);
    JsonArray blocks = new JsonArray();
    Map<String, Integer> languages = new TreeMap<>();
    int number = 0;
    for (MarkdownPage.Section s : doc.page().sections()) {
      for (MarkdownPage.CodeBlock block : s.code()) {
        number++;
        String label = block.language().isEmpty() ? "text" : block.language();
        languages.merge(label, 1, Integer::sum);
        if (wanted == null || label.equals(wanted)) {
          blocks.add(
              new JsonObject()
                  .put("index", number)
                  .put("language", label)
                  .put("section", s.level() == 0 ? doc.info().title() : s.heading())
                  .put("code", block.code()));
        }
      }
    }
    JsonObject out =
        doc.head()
            .put("blocks", blocks)
            .put("count", blocks.size())
            .put("total_blocks", number)
            .put("languages", new JsonObject(Map.copyOf(languages)));
    if (wanted != null) {
      out.put("language", wanted);
    }
    if (wanted != null && blocks.isEmpty() && number > 0) {
      out.put(
          "message",
          "no " + wanted + " block here; the document has " + languages.keySet() + " blocks");
    }
    return out;
  }
}
