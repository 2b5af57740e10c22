package dev.sonde.docs;

import dev.sonde.core.CallerException;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.IOException;

/**
 * What every docs tool shares: it runs on a worker (the index is on disk), waits for the first
 * index build within its deadline, and turns the library's caller errors into tool errors.
 */
abstract class DocsTool implements Tool {
  static final Arg<String> DOCUMENT =
      Arg.string(
              "file_identifier",
              "The document: its key (source/path, as list_available_documents and"
                  + " search_documents give it), its sonde://docs/ URI, its URL, a path unique"
                  + " across sources, or its title")
          .required();

  protected final DocsLibrary library;
  private final ToolSpec spec;

  DocsTool(DocsLibrary library, ToolSpec.Builder spec) {
    this.library = library;
    this.spec = spec.annotations(ToolAnnotations.READ_ONLY).mode(ExecutionMode.WORKER).build();
  }

  @Override
  public final ToolSpec spec() {
    return spec;
  }

  @Override
  public final Future<ToolResult> call(ToolContext ctx) throws Exception {
    library.awaitReady(ctx.deadline());
    return Future.succeededFuture(ToolResult.structured(answer(ctx)));
  }

  abstract JsonObject answer(ToolContext ctx) throws IOException;

  /** The page an argument names, parsed, with the fields every per-document answer starts with. */
  record Opened(DocsLibrary.PageInfo info, String content, MarkdownPage page, JsonObject head) {}

  Opened open(String identifier) throws IOException {
    DocsLibrary.PageInfo info = library.resolve(identifier);
    String content = library.content(info);
    MarkdownPage page = MarkdownPage.parse(content, info.title());
    JsonObject head =
        new JsonObject()
            .put("key", info.key())
            .put("uri", info.uri())
            .put("title", info.title())
            .put("source", info.source())
            .put("version", info.version())
            .put("url", info.url());
    return new Opened(info, content, page, head);
  }

  /** {@code value} trimmed, or null when blank: some clients send every field, empty. */
  static String optional(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  static CallerException fail(String message) {
    return new CallerException(message);
  }
}
