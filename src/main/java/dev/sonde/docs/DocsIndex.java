package dev.sonde.docs;

import dev.sonde.core.Language;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lucene index on disk: one document per page (its Markdown, checksum and catalogue fields) and
 * one per chunk (the searchable fields, in the page's language). Pages are replaced whole, by key,
 * so an update never leaves a page half old and half new.
 */
final class DocsIndex implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DocsIndex.class);

  /** Bumped whenever fields or analyzers change; an index of another version is rebuilt. */
  static final String SCHEMA = "sonde-docs-12";

  private static final String SCHEMA_KEY = "schema";
  static final String TYPE = "type";
  static final String KEY = "key";

  /**
   * What a search hit shows, in one doc value per chunk: chunk id, page key, source, path, version,
   * language, page title, section, breadcrumb, URL, separated by {@link #SEPARATOR}.
   */
  static final String HIT = "hit";

  private static final String SEPARATOR = "\u001f";

  /** The first {@link Snippets#SCAN_CHARS} characters of a chunk's prose and of its code. */
  static final String PROSE_HEAD = "prose_head";

  static final String CODE_HEAD = "code_head";

  static String[] hitFields(String value) {
    return value.split(SEPARATOR, -1);
  }

  private final DocsAnalyzers analyzers;
  private final Directory directory;
  private final IndexWriter writer;
  private final SearcherManager searchers;

  DocsIndex(Path dir, DocsAnalyzers analyzers) throws IOException {
    this.analyzers = analyzers;
    this.directory = FSDirectory.open(dir);
    boolean current = false;
    if (DirectoryReader.indexExists(directory)) {
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        current = SCHEMA.equals(reader.getIndexCommit().getUserData().get(SCHEMA_KEY));
      } catch (CorruptIndexException | IndexFormatTooOldException | IndexFormatTooNewException e) {
        // the index only mirrors the sources: one that cannot be read is built again
        LOG.warn(
            "the documentation index in {} cannot be read and is rebuilt: {}", dir, e.getMessage());
        for (String file : directory.listAll()) {
          if (!file.equals(IndexWriter.WRITE_LOCK_NAME)) {
            directory.deleteFile(file);
          }
        }
      }
    }
    IndexWriterConfig config =
        new IndexWriterConfig(analyzers.perField())
            .setOpenMode(
                current ? IndexWriterConfig.OpenMode.APPEND : IndexWriterConfig.OpenMode.CREATE)
            .setRAMBufferSizeMB(64);
    this.writer = new IndexWriter(directory, config);
    this.searchers = new SearcherManager(writer, null);
  }

  /** Page key → checksum of every page in the index. */
  Map<String, String> checksums() throws IOException {
    Map<String, String> out = new HashMap<>();
    for (Document page : pages()) {
      out.put(page.get(KEY), page.get("checksum"));
    }
    return out;
  }

  /** Every page document (stored fields without the Markdown). */
  List<Document> pages() throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      TermQuery query = new TermQuery(new Term(TYPE, "page"));
      int count = Math.max(1, searcher.count(query));
      TopDocs top = searcher.search(query, count);
      StoredFields stored = searcher.storedFields();
      List<Document> out = new ArrayList<>();
      for (ScoreDoc hit : top.scoreDocs) {
        out.add(
            stored.document(
                hit.doc,
                Set.of(
                    KEY,
                    "source",
                    "path",
                    "version",
                    "lang",
                    "title",
                    "url",
                    "keywords",
                    "redirects",
                    "checksum",
                    "chars")));
      }
      return out;
    } finally {
      searchers.release(searcher);
    }
  }

  /** Replaces (or adds) a page and its chunks. */
  void put(DocPage page) throws IOException {
    List<Document> docs = new ArrayList<>();
    docs.add(pageDocument(page));
    page.chunks().forEach(c -> docs.add(chunkDocument(page, c)));
    writer.updateDocuments(new Term(KEY, page.key()), docs);
  }

  void delete(Collection<String> keys) throws IOException {
    for (String key : keys) {
      writer.deleteDocuments(new Term(KEY, key));
    }
  }

  /** Makes every change durable and visible to searches. */
  void commit() throws IOException {
    writer.setLiveCommitData(Map.of(SCHEMA_KEY, SCHEMA).entrySet());
    writer.commit();
    searchers.maybeRefreshBlocking();
  }

  /** The stored Markdown of a page, or null. */
  String content(String key) throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      BooleanQuery query =
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term(KEY, key)), BooleanClause.Occur.FILTER)
              .add(new TermQuery(new Term(TYPE, "page")), BooleanClause.Occur.FILTER)
              .build();
      TopDocs top = searcher.search(query, 1);
      if (top.scoreDocs.length == 0) {
        return null;
      }
      int doc = top.scoreDocs[0].doc;
      LeafReaderContext leaf = leaf(searcher, doc);
      BinaryDocValues content = leaf.reader().getBinaryDocValues("content");
      return content != null && content.advanceExact(doc - leaf.docBase)
          ? content.binaryValue().utf8ToString()
          : null;
    } finally {
      searchers.release(searcher);
    }
  }

  /** The segment holding a document of the searcher's reader. */
  static LeafReaderContext leaf(IndexSearcher searcher, int doc) {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    return leaves.get(ReaderUtil.subIndex(doc, leaves));
  }

  IndexSearcher acquire() throws IOException {
    return searchers.acquire();
  }

  void release(IndexSearcher searcher) throws IOException {
    searchers.release(searcher);
  }

  DocsAnalyzers analyzers() {
    return analyzers;
  }

  private Document pageDocument(DocPage page) {
    Document doc = common(page, "page");
    doc.add(new StoredField("title", page.title()));
    doc.add(
        new TextField(DocsAnalyzers.field("title", page.language()), page.title(), Field.Store.NO));
    doc.add(new StoredField("keywords", String.join("\n", page.keywords())));
    doc.add(new StoredField("redirects", String.join("\n", page.redirects())));
    doc.add(new StoredField("checksum", page.checksum()));
    doc.add(new StoredField("chars", page.content().length()));
    // doc values, not a stored field: reading a hit's stored fields must not decompress pages
    doc.add(new BinaryDocValuesField("content", new BytesRef(page.content())));
    return doc;
  }

  private Document chunkDocument(DocPage page, DocChunk chunk) {
    Language language = page.language();
    Document doc = common(page, "chunk");
    doc.add(new StringField("chunk_id", chunk.chunkId(), Field.Store.NO));
    doc.add(
        new BinaryDocValuesField(
            HIT,
            new BytesRef(
                String.join(
                    SEPARATOR,
                    chunk.chunkId(),
                    page.key(),
                    page.source(),
                    page.path(),
                    page.version(),
                    language.code(),
                    page.title(),
                    chunk.section(),
                    chunk.breadcrumb(),
                    chunk.url()))));
    doc.add(text("title", language, page.title()));
    doc.add(text("section", language, chunk.section()));
    doc.add(
        text(
            "breadcrumb",
            language,
            chunk.breadcrumb() + "\n" + String.join("\n", page.keywords())));
    doc.add(text("body", language, chunk.prose()));
    doc.add(head(PROSE_HEAD, chunk.prose()));
    doc.add(head(CODE_HEAD, chunk.code()));
    if (language != Language.EN) {
      doc.add(bigrams("title", page.title()));
      doc.add(bigrams("section", chunk.section()));
      doc.add(bigrams("body", chunk.prose()));
    }
    doc.add(new TextField(DocsAnalyzers.CODE, chunk.code(), Field.Store.NO));
    return doc;
  }

  private static Field text(String name, Language language, String value) {
    return new TextField(DocsAnalyzers.field(name, language), value, Field.Store.NO);
  }

  /** The start of a chunk's text, all a snippet reads, as a doc value (no block to decompress). */
  private static Field head(String name, String text) {
    String head =
        text.length() > Snippets.SCAN_CHARS ? text.substring(0, Snippets.SCAN_CHARS) : text;
    return new BinaryDocValuesField(name, new BytesRef(head));
  }

  private static Field bigrams(String name, String value) {
    return new TextField(name + "." + DocsAnalyzers.BIGRAMS, value, Field.Store.NO);
  }

  /** The fields pages and chunks share; only a page stores them (a chunk's are in {@link #HIT}). */
  private static Document common(DocPage page, String type) {
    boolean isPage = type.equals("page");
    Field.Store store = isPage ? Field.Store.YES : Field.Store.NO;
    Document doc = new Document();
    doc.add(new StringField(TYPE, type, Field.Store.NO));
    doc.add(new StringField(KEY, page.key(), store));
    doc.add(new SortedDocValuesField(KEY, new BytesRef(page.key())));
    doc.add(new StringField("source", page.source(), store));
    doc.add(new StringField("version", page.version(), store));
    doc.add(new StringField("lang", page.language().code(), store));
    if (isPage) {
      doc.add(new StoredField("path", page.path()));
      doc.add(new StoredField("url", page.url()));
    }
    return doc;
  }

  @Override
  public void close() throws IOException {
    searchers.close();
    writer.close();
    directory.close();
  }
}
