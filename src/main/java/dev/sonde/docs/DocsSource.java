package dev.sonde.docs;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/** Where pages come from: a Markdown folder, Sonde's manual, or a DuckDB docs-search database. */
interface DocsSource {
  String name();

  String description();

  /** Every page the source has now; an unavailable source returns none and says why in status. */
  List<PageFile> pages() throws IOException;

  /** The version labels a search uses when it names none; empty means every label. */
  Set<String> defaultVersions();

  /** Null when the source is fine; otherwise what is wrong or stale, in a sentence. */
  default String status() {
    return null;
  }

  /**
   * Whether the source is there but could not be read this time, so its pages already in the index
   * are kept rather than dropped (a source that is gone loses its pages).
   */
  default boolean keepsIndexedPages() {
    return false;
  }
}
