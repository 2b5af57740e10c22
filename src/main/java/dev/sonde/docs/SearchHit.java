package dev.sonde.docs;

import java.util.List;

/** One ranked section: where it is, a highlighted snippet, its BM25 score and the terms it has. */
public record SearchHit(
    String chunkId,
    String key,
    String source,
    String path,
    String version,
    String language,
    String pageTitle,
    String section,
    String breadcrumb,
    String url,
    String snippet,
    double score,
    List<String> matched) {

  SearchHit withSnippet(String text) {
    return new SearchHit(
        chunkId,
        key,
        source,
        path,
        version,
        language,
        pageTitle,
        section,
        breadcrumb,
        url,
        text,
        score,
        matched);
  }
}
