package dev.sonde.docs;

import dev.sonde.tools.ResourceProvider;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** Every indexed document as a resource {@code sonde://docs/{source}/{path}} (its Markdown). */
public final class DocsResources implements ResourceProvider {
  private static final String PREFIX = "sonde://docs/";
  private static final int MAX_COMPLETIONS = 100;

  private final WorkerExecutor pool;
  private final DocsLibrary library;

  /** Reads pages on {@code pool}, the docs family's own. */
  public DocsResources(WorkerExecutor pool, DocsLibrary library) {
    this.pool = pool;
    this.library = library;
  }

  /** The resource list built from one catalogue: resources/list runs on the event loop. */
  private record Listing(List<DocsLibrary.PageInfo> from, List<JsonObject> resources) {}

  private volatile Listing listing = new Listing(List.of(), List.of());

  @Override
  public List<JsonObject> resources() {
    List<DocsLibrary.PageInfo> pages = library.catalogue();
    Listing current = listing;
    if (current.from() != pages) {
      current = new Listing(pages, pages.stream().map(DocsResources::resource).toList());
      listing = current;
    }
    return current.resources();
  }

  private static JsonObject resource(DocsLibrary.PageInfo p) {
    return new JsonObject()
        .put("uri", p.uri())
        .put("name", p.key())
        .put("title", p.title())
        .put(
            "description",
            p.source()
                + " documentation, version "
                + p.version()
                + ", "
                + p.chars()
                + " characters")
        .put("mimeType", "text/markdown");
  }

  @Override
  public List<JsonObject> templates() {
    return List.of(
        new JsonObject()
            .put("uriTemplate", PREFIX + "{source}/{path}")
            .put("name", "document")
            .put(
                "description",
                "One documentation page as Markdown (list_available_documents lists them)")
            .put("mimeType", "text/markdown"));
  }

  /** A document resource is what get_full_document_content reads. */
  @Override
  public String toolFor(String uri) {
    return owns(uri) ? "get_full_document_content" : null;
  }

  @Override
  public boolean owns(String uri) {
    return uri.startsWith(PREFIX);
  }

  @Override
  public Future<JsonObject> read(String uri, String account) {
    return pool.executeBlocking(
        () -> {
          DocsLibrary.PageInfo page = library.resolve(uri);
          return ResourceProvider.textContents(page.uri(), "text/markdown", library.content(page));
        },
        false);
  }

  @Override
  public Future<List<String>> complete(
      String uriTemplate, String variable, String prefix, JsonObject resolved, String account) {
    if (!uriTemplate.startsWith(PREFIX)) {
      return Future.succeededFuture(List.of());
    }
    String source = resolved.getString("source");
    List<String> values =
        switch (variable) {
          case "source" ->
              library.sources().stream()
                  .map(DocsLibrary.SourceInfo::name)
                  .filter(n -> n.startsWith(prefix))
                  .toList();
          case "path" ->
              library.catalogue().stream()
                  .filter(p -> source == null || p.source().equals(source))
                  .map(DocsLibrary.PageInfo::path)
                  .filter(p -> p.startsWith(prefix))
                  .distinct()
                  .limit(MAX_COMPLETIONS)
                  .toList();
          default -> List.of();
        };
    return Future.succeededFuture(values);
  }
}
