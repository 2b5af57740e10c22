package dev.sonde.docs;

import dev.sonde.config.SondeConfig;
import dev.sonde.core.CallerException;
import dev.sonde.core.Language;
import dev.sonde.core.Quote;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * Every documentation source behind one Lucene index: keeps the index in step with the sources
 * (only changed pages are indexed again), answers searches with version selection and serves pages
 * by key, path, URL or title.
 */
public final class DocsLibrary implements Closeable {
  /** A page in the catalogue. */
  public record PageInfo(
      String key,
      String source,
      String path,
      String version,
      String language,
      String title,
      String url,
      List<String> keywords,
      List<String> redirects,
      int chars) {
    public String uri() {
      return "sonde://docs/" + key;
    }
  }

  /** A source as the tools describe it. */
  public record SourceInfo(
      String name,
      String description,
      Set<String> versions,
      Set<String> defaultVersions,
      int pages,
      String status) {}

  /** What a sync did. */
  public record SyncReport(int indexed, int removed, int unchanged, long millis) {}

  /** A search's answer; {@code suggestions} are the closest titles when nothing matched. */
  public record SearchAnswer(
      List<SearchHit> hits,
      List<String> terms,
      List<String> versions,
      List<String> notices,
      List<PageInfo> suggestions) {}

  /** Reports indexing progress; a large build becomes a job with steps. */
  public interface Progress {
    void step(int done, int total, String message);
  }

  private static final Set<String> ALL_VERSIONS = Set.of("all", "any", "*");
  private static final Set<String> DEFAULT_VERSIONS = Set.of("", "current", "latest", "default");
  private static final Map<String, String> VERSION_ALIASES =
      Map.of("nightly", "preview", "dev", "preview", "main", "preview", "blogs", "blog");

  private final Path indexDir;
  private final List<DocsSource> sources = new ArrayList<>();
  private final CountDownLatch firstSync = new CountDownLatch(1);
  private DocsIndex index;
  private volatile Map<String, PageInfo> catalogue = Map.of();
  private volatile List<PageInfo> pages = List.of();
  private volatile Map<String, Set<String>> versionsBySource = Map.of();
  private volatile Set<Language> languages = Set.of();
  private volatile String progress = "not started";

  public DocsLibrary(SondeConfig config, Supplier<String> toolReference) {
    this(config, toolReference, Clock.systemUTC());
  }

  DocsLibrary(SondeConfig config, Supplier<String> toolReference, Clock clock) {
    Path data = Path.of(config.data().dir());
    SondeConfig.DocsConfig docs = config.docs();
    this.indexDir = data.resolve(docs.indexDir());
    sources.add(new ManualSource(toolReference));
    docs.sources().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              SondeConfig.DocsSourceConfig s = e.getValue();
              if (s.type().equals("markdown")) {
                sources.add(new MarkdownFolderSource(e.getKey(), s, Path.of(s.path())));
              } else {
                Path file =
                    s.path().isBlank()
                        ? data.resolve("docs").resolve(e.getKey() + ".duckdb")
                        : data.resolve(s.path());
                sources.add(
                    new DocsSearchDatabaseSource(
                        e.getKey(),
                        s,
                        file,
                        Duration.ofHours(docs.refreshHours()),
                        Duration.ofSeconds(docs.downloadTimeoutSeconds()),
                        clock));
              }
            });
  }

  /**
   * Brings the index in step with the sources: new and changed pages (by checksum) are indexed,
   * vanished ones removed; a source that is there but unreadable this time keeps its pages.
   */
  public synchronized SyncReport sync(Progress listener) throws IOException {
    long started = System.nanoTime();
    try {
      if (index == null) {
        Files.createDirectories(indexDir);
        try {
          // the analyzers load their dictionaries here, on the first sync, not on Sonde's start
          index = new DocsIndex(indexDir, new DocsAnalyzers());
        } catch (LockObtainFailedException e) {
          progress =
              "another Sonde process holds the index in this data directory; give each Sonde its"
                  + " own data.dir";
          throw new CallerException("the documentation index is unavailable: " + progress);
        }
      }
      Map<String, String> indexed = index.checksums();
      Set<String> keep = new HashSet<>();
      List<PageFile> changed = new ArrayList<>();
      Set<String> unreadable = new HashSet<>();
      for (DocsSource source : sources) {
        progress = "reading source " + source.name();
        List<PageFile> pages = source.pages();
        if (source.keepsIndexedPages()) {
          unreadable.add(source.name());
        }
        for (PageFile page : pages) {
          keep.add(page.key());
          if (!page.checksum().equals(indexed.get(page.key()))) {
            changed.add(page);
          }
        }
      }
      List<String> removed =
          indexed.keySet().stream()
              .filter(
                  k -> !keep.contains(k) && !unreadable.contains(k.substring(0, k.indexOf('/'))))
              .toList();
      int total = changed.size();
      listener.step(0, total, total + " pages to index, " + removed.size() + " to remove");
      int done = 0;
      for (PageFile page : changed) {
        index.put(page.loader().load());
        done++;
        if (done % 50 == 0 || done == total) {
          progress = "indexed " + done + " of " + total + " pages";
          listener.step(done, total, progress);
        }
      }
      index.delete(removed);
      index.commit();
      catalogue = readCatalogue();
      pages = List.copyOf(catalogue.values());
      versionsBySource = versionsOf(catalogue);
      languages = languagesOf(catalogue);
      progress = "ready";
      return new SyncReport(
          total,
          removed.size(),
          keep.size() - total,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    } finally {
      firstSync.countDown();
    }
  }

  /** Waits for the first sync; says how far it is when the deadline passes first. */
  public void awaitReady(long deadlineMillis) throws InterruptedException {
    long wait = Math.max(0, deadlineMillis - System.currentTimeMillis() - 500);
    if (!firstSync.await(wait, TimeUnit.MILLISECONDS)) {
      throw new CallerException(
          "the documentation index is still being built (" + progress + "); try again shortly");
    }
    if (index == null) {
      throw new CallerException("the documentation index is unavailable: " + progress);
    }
  }

  public List<SourceInfo> sources() {
    Map<String, Set<String>> versions = versionsBySource;
    Map<String, Integer> counts = new HashMap<>();
    catalogue.values().forEach(p -> counts.merge(p.source(), 1, Integer::sum));
    return sources.stream()
        .map(
            s -> {
              Set<String> labels = versions.getOrDefault(s.name(), Set.of());
              return new SourceInfo(
                  s.name(),
                  s.description(),
                  labels,
                  defaults(s, labels),
                  counts.getOrDefault(s.name(), 0),
                  s.status());
            })
        .toList();
  }

  /** Pages in catalogue order (source, then path); the same list until the next sync changes it. */
  public List<PageInfo> catalogue() {
    return pages;
  }

  public SearchAnswer search(String keyword, String version, String source, int limit)
      throws IOException {
    List<String> notices = new ArrayList<>();
    Selection selection = select(version, source);
    sources.stream()
        .filter(s -> s.status() != null && (source == null || s.name().equals(source)))
        .forEach(s -> notices.add(s.status()));
    DocsSearch.Result result =
        new DocsSearch(index, languages).search(keyword, selection.filter(), limit);
    List<String> versions = selection.described();
    if (result.hits().isEmpty() && selection.defaults()) {
      Selection all = select("all", source);
      DocsSearch.Result wider =
          new DocsSearch(index, languages).search(keyword, all.filter(), limit);
      if (!wider.hits().isEmpty()) {
        notices.add(
            "nothing in the default versions " + versions + "; searched every version instead");
        result = wider;
        versions = all.described();
      }
    }
    notices.addAll(result.notices());
    List<PageInfo> suggestions = List.of();
    if (result.hits().isEmpty() && !result.terms().isEmpty()) {
      suggestions = closest(keyword, 5);
      notices.add(
          "nothing matched "
              + result.terms()
              + " in "
              + (versions.size() > 6 ? "any version" : versions)
              + "; the closest titles are in suggestions");
    }
    return new SearchAnswer(result.hits(), result.terms(), versions, notices, suggestions);
  }

  /** Which version labels of which sources a request covers. */
  private record Selection(Map<String, Set<String>> labels, boolean defaults) {
    Query filter() {
      BooleanQuery.Builder anyOf = new BooleanQuery.Builder();
      labels.forEach(
          (source, versions) -> {
            BooleanQuery.Builder anyLabel = new BooleanQuery.Builder();
            versions.forEach(
                l ->
                    anyLabel.add(
                        new TermQuery(new Term("version", l)), BooleanClause.Occur.SHOULD));
            anyOf.add(
                new BooleanQuery.Builder()
                    .add(new TermQuery(new Term("source", source)), BooleanClause.Occur.FILTER)
                    .add(anyLabel.build(), BooleanClause.Occur.FILTER)
                    .build(),
                BooleanClause.Occur.SHOULD);
          });
      return new BooleanQuery.Builder()
          .add(new TermQuery(new Term(DocsIndex.TYPE, "chunk")), BooleanClause.Occur.FILTER)
          .add(anyOf.build(), BooleanClause.Occur.FILTER)
          .build();
    }

    List<String> described() {
      List<String> out = new ArrayList<>();
      labels.forEach((source, versions) -> versions.forEach(v -> out.add(source + ":" + v)));
      return out;
    }

    boolean covers(PageInfo page) {
      return labels.getOrDefault(page.source(), Set.of()).contains(page.version());
    }
  }

  /** Pages of a source (or all) in a version (a label, current for the defaults, or all). */
  public List<PageInfo> catalogue(String source, String version) {
    Selection selection = select(version == null ? "all" : version, source);
    return catalogue.values().stream().filter(selection::covers).toList();
  }

  private static Set<Language> languagesOf(Map<String, PageInfo> pages) {
    Set<Language> out = EnumSet.noneOf(Language.class);
    pages.values().forEach(p -> out.add(Language.of(p.language())));
    return out;
  }

  private static Map<String, Set<String>> versionsOf(Map<String, PageInfo> pages) {
    Map<String, Set<String>> out = new HashMap<>();
    pages
        .values()
        .forEach(p -> out.computeIfAbsent(p.source(), k -> new TreeSet<>()).add(p.version()));
    return out;
  }

  private Selection select(String version, String source) {
    Map<String, Set<String>> versions = new LinkedHashMap<>();
    Map<String, Set<String>> indexed = versionsBySource;
    for (DocsSource s : sources) {
      if (source == null || s.name().equals(source)) {
        versions.put(s.name(), indexed.getOrDefault(s.name(), Set.of()));
      }
    }
    if (versions.isEmpty()) {
      throw new CallerException(
          "no documentation source "
              + Quote.of(source)
              + "; the sources are "
              + sources.stream().map(DocsSource::name).toList());
    }
    String wanted = version == null ? "" : version.trim().toLowerCase(Locale.ROOT);
    wanted = VERSION_ALIASES.getOrDefault(wanted, wanted);
    boolean defaults = DEFAULT_VERSIONS.contains(wanted);
    boolean all = ALL_VERSIONS.contains(wanted);
    Set<String> known = new TreeSet<>();
    versions.values().forEach(known::addAll);
    for (String label : known) {
      if (label.equalsIgnoreCase(wanted)) {
        wanted = label;
      }
    }
    if (!defaults && !all && !known.contains(wanted)) {
      throw new CallerException(
          "no version "
              + Quote.of(version)
              + (source == null ? "" : " in source " + source)
              + "; use one of "
              + known
              + ", current (each source's default) or all");
    }
    Map<String, Set<String>> labels = new LinkedHashMap<>();
    for (Map.Entry<String, Set<String>> e : versions.entrySet()) {
      Set<String> chosen =
          defaults
              ? defaults(source(e.getKey()), e.getValue())
              : all ? e.getValue() : Set.of(wanted);
      Set<String> present = new TreeSet<>(chosen);
      present.retainAll(e.getValue());
      if (!present.isEmpty()) {
        labels.put(e.getKey(), present);
      }
    }
    return new Selection(labels, defaults);
  }

  private DocsSource source(String name) {
    return sources.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  private static Set<String> defaults(DocsSource source, Set<String> present) {
    Set<String> wanted = new LinkedHashSet<>(source.defaultVersions());
    wanted.retainAll(present);
    return wanted.isEmpty() ? present : wanted;
  }

  /**
   * The page an identifier names: its key ({@code source/path}), its {@code sonde://docs/} URI, its
   * URL, a path unique across sources (with or without {@code .md}), a unique title, or an old
   * address its front matter lists under {@code redirect_from}.
   */
  public PageInfo resolve(String identifier) {
    String id = identifier.trim().replaceFirst("^sonde://docs/", "").replaceFirst("#.*$", "");
    Map<String, PageInfo> pages = catalogue;
    PageInfo exact = pages.get(id);
    if (exact != null) {
      return exact;
    }
    List<PageInfo> matches =
        pages.values().stream()
            .filter(
                p ->
                    (!p.url().isEmpty()
                            && p.url().replaceAll("/$", "").equals(id.replaceAll("/$", "")))
                        || p.key().endsWith("/" + id)
                        || p.key().endsWith("/" + id + ".md")
                        || p.title().equalsIgnoreCase(id)
                        || p.redirects().contains(id)
                        || p.redirects().contains("/" + id))
            .toList();
    if (matches.size() == 1) {
      return matches.get(0);
    }
    if (matches.size() > 1) {
      throw new CallerException(
          Quote.of(identifier)
              + " names "
              + matches.size()
              + " documents; use one of "
              + matches.stream().limit(8).map(PageInfo::key).toList());
    }
    throw new CallerException(
        "no document "
            + Quote.of(identifier)
            + "; the closest are "
            + closest(identifier, 5).stream().map(PageInfo::key).toList()
            + " (list_available_documents shows them all)");
  }

  /** The page's Markdown as indexed. */
  public String content(PageInfo page) throws IOException {
    String content = index.content(page.key());
    if (content == null) {
      throw new CallerException("the document " + page.key() + " is no longer in the index");
    }
    return content;
  }

  /** Pages whose title and path look most like the text (character trigrams). */
  List<PageInfo> closest(String text, int limit) {
    Set<String> wanted = trigrams(text);
    return catalogue.values().stream()
        .sorted(
            Comparator.comparingDouble(
                    (PageInfo p) -> -similarity(wanted, trigrams(p.title() + " " + p.path())))
                .thenComparing(PageInfo::key))
        .limit(limit)
        .toList();
  }

  private static double similarity(Set<String> a, Set<String> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    long shared = a.stream().filter(b::contains).count();
    return shared / (double) (a.size() + b.size() - shared);
  }

  private static Set<String> trigrams(String text) {
    String t = " " + text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").trim() + " ";
    Set<String> out = new HashSet<>();
    for (int i = 0; i + 3 <= t.length(); i++) {
      out.add(t.substring(i, i + 3));
    }
    return out;
  }

  private Map<String, PageInfo> readCatalogue() throws IOException {
    List<PageInfo> pages = new ArrayList<>();
    for (Document doc : index.pages()) {
      String keywords = doc.get("keywords");
      pages.add(
          new PageInfo(
              doc.get(DocsIndex.KEY),
              doc.get("source"),
              doc.get("path"),
              doc.get("version"),
              doc.get("lang"),
              doc.get("title"),
              doc.get("url"),
              lines(keywords),
              lines(doc.get("redirects")),
              doc.getField("chars").numericValue().intValue()));
    }
    pages.sort(Comparator.comparing(PageInfo::source).thenComparing(PageInfo::path));
    Map<String, PageInfo> byKey = new LinkedHashMap<>();
    pages.forEach(p -> byKey.put(p.key(), p));
    return byKey;
  }

  private static List<String> lines(String joined) {
    return joined == null || joined.isEmpty() ? List.of() : List.of(joined.split("\n"));
  }

  @Override
  public synchronized void close() throws IOException {
    if (index != null) {
      index.close();
      index = null;
    }
  }
}
