package dev.sonde.docs;

/**
 * One searchable piece of a page, normally a section. {@code chunkId} is stable across rebuilds:
 * the source, the page path and the section anchor (or the id a docs-search database gave it).
 */
public record DocChunk(
    String chunkId, String section, String breadcrumb, String url, String prose, String code) {}
