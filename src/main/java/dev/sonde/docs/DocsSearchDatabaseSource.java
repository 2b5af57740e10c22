package dev.sonde.docs;

import dev.sonde.config.SondeConfig.DocsSourceConfig;
import dev.sonde.core.Language;
import dev.sonde.db.DuckDbFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A DuckDB docs-search database ({@code docs_chunks(chunk_id, page_title, section, breadcrumb, url,
 * version, text)}, as duckdb.org publishes it), opened read-only. With a URL, the file is
 * downloaded to the data directory and refreshed when older than {@code docs.refreshHours};
 * offline, the cached copy keeps serving and the status says how old it is.
 */
final class DocsSearchDatabaseSource implements DocsSource {
  private static final Logger LOG = LoggerFactory.getLogger(DocsSearchDatabaseSource.class);

  private final String name;
  private final DocsSourceConfig config;
  private final Path file;
  private final Duration refreshAfter;
  private final Duration downloadTimeout;
  private final Clock clock;
  private volatile String status;
  private volatile boolean readFailed;
  private volatile Set<String> versions = Set.of();

  DocsSearchDatabaseSource(
      String name,
      DocsSourceConfig config,
      Path file,
      Duration refreshAfter,
      Duration downloadTimeout,
      Clock clock) {
    this.name = name;
    this.config = config;
    this.file = file;
    this.refreshAfter = refreshAfter;
    this.downloadTimeout = downloadTimeout;
    this.clock = clock;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return config.description().isBlank()
        ? "DuckDB docs-search database"
            + (config.url().isBlank() ? "" : " from " + shown(config.url()))
        : config.description();
  }

  @Override
  public Set<String> defaultVersions() {
    if (!config.defaultVersion().isBlank()) {
      return Set.of(config.defaultVersion());
    }
    Set<String> known = versions;
    return known.contains("stable") ? Set.of("stable") : known;
  }

  @Override
  public String status() {
    return status;
  }

  @Override
  public boolean keepsIndexedPages() {
    return readFailed;
  }

  @Override
  public List<PageFile> pages() throws IOException {
    String refreshProblem = config.url().isBlank() ? null : refreshIfStale();
    readFailed = false;
    if (!Files.isRegularFile(file)) {
      status =
          "the docs-search index of source "
              + name
              + " is unavailable: there is no copy at "
              + file.getFileName()
              + " in the data directory"
              + (refreshProblem == null
                  ? ""
                  : " and downloading it failed (" + refreshProblem + ")")
              + (config.url().isBlank()
                  ? "; set docs.sources." + name + ".path to a docs-search .duckdb file"
                  : "; download "
                      + shown(config.url())
                      + " to docs/"
                      + file.getFileName()
                      + " in the data directory, or let Sonde reach it");
      return List.of();
    }
    List<PageFile> pages;
    try {
      pages = read();
    } catch (SQLException e) {
      readFailed = true;
      LOG.warn("docs source {}: {} cannot be read: {}", name, file, e.getMessage());
      status =
          "the docs-search index of source "
              + name
              + " cannot be read (it must be a DuckDB file with a table docs_chunks(chunk_id,"
              + " page_title, section, breadcrumb, url, version, text), not open for writing"
              + " elsewhere); the server log has the details";
      return List.of();
    }
    status =
        refreshProblem == null
            ? null
            : "serving the cached copy of "
                + name
                + " downloaded "
                + age()
                + " ago; refreshing it from "
                + shown(config.url())
                + " failed ("
                + refreshProblem
                + ")";
    return pages;
  }

  /** Downloads the file when it is missing or stale; returns what went wrong, or null. */
  private String refreshIfStale() {
    try {
      if (Files.isRegularFile(file)
          && Duration.between(Files.getLastModifiedTime(file).toInstant(), clock.instant())
                  .compareTo(refreshAfter)
              < 0) {
        return null;
      }
      Files.createDirectories(file.getParent());
      Path partial = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".part");
      try {
        HttpClient client =
            HttpClient.newBuilder()
                // one file, one stream: HTTP/1.1 avoids the h2c upgrade on plain http
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(downloadTimeout)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
        CompletableFuture<HttpResponse<Path>> download =
            client.sendAsync(
                HttpRequest.newBuilder(URI.create(config.url())).build(),
                HttpResponse.BodyHandlers.ofFile(partial));
        HttpResponse<Path> response;
        try {
          // the whole download, body included, must finish within the timeout
          response = download.get(downloadTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          download.cancel(true);
          return "the download took longer than " + downloadTimeout.toSeconds() + " s";
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof IOException io) {
            throw io;
          }
          return cause.getClass().getSimpleName();
        }
        if (response.statusCode() != 200) {
          return "HTTP " + response.statusCode();
        }
        Files.move(
            partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return null;
      } finally {
        Files.deleteIfExists(partial);
      }
    } catch (FileSystemException e) {
      LOG.warn("docs source {}: cannot write the download: {}", name, e.getMessage());
      return "the data directory cannot be written";
    } catch (IOException e) {
      return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private String age() {
    try {
      Duration age = Duration.between(Files.getLastModifiedTime(file).toInstant(), clock.instant());
      return age.toHours() >= 48 ? age.toDays() + " days" : age.toHours() + " hours";
    } catch (IOException e) {
      return "some time";
    }
  }

  Instant downloadedAt() throws IOException {
    return Files.getLastModifiedTime(file).toInstant();
  }

  private record Row(
      String chunkId,
      String pageTitle,
      String section,
      String breadcrumb,
      String url,
      String version,
      String text) {}

  private List<PageFile> read() throws SQLException {
    Map<String, List<Row>> byPage = new LinkedHashMap<>();
    try (Connection c = DuckDbFiles.openReadOnly(file);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT CAST(chunk_id AS VARCHAR), page_title, section, breadcrumb, url, version,"
                    + " text FROM docs_chunks ORDER BY rowid")) {
      while (rs.next()) {
        Row row =
            new Row(
                rs.getString(1),
                value(rs.getString(2)),
                value(rs.getString(3)),
                value(rs.getString(4)),
                value(rs.getString(5)),
                value(rs.getString(6)),
                value(rs.getString(7)));
        byPage.computeIfAbsent(row.version() + "|" + pageUrl(row), k -> new ArrayList<>()).add(row);
      }
    }
    Set<String> labels = new LinkedHashSet<>();
    List<PageFile> pages = new ArrayList<>();
    byPage.values().forEach(rows -> pages.add(page(rows, labels)));
    versions = Set.copyOf(labels);
    return pages;
  }

  private PageFile page(List<Row> rows, Set<String> labels) {
    Row first = rows.get(0);
    labels.add(first.version());
    String url = pageUrl(first);
    String path = pagePath(first, url);
    StringBuilder markdown = new StringBuilder("# ").append(first.pageTitle()).append("\n\n");
    List<DocChunk> chunks = new ArrayList<>();
    for (Row row : rows) {
      if (!row.section().isBlank() && !row.section().equals(first.pageTitle())) {
        markdown.append("## ").append(row.section()).append("\n\n");
      }
      markdown.append(row.text().strip()).append("\n\n");
      MarkdownPage parsed = MarkdownPage.parse(row.text(), row.section());
      chunks.add(
          new DocChunk(
              name + ":" + row.chunkId(),
              row.section().isBlank() ? first.pageTitle() : row.section(),
              row.breadcrumb(),
              row.url(),
              parsed.sections().stream()
                  .map(MarkdownPage.Section::prose)
                  .collect(Collectors.joining("\n\n")),
              parsed.codeBlocks().stream()
                  .map(MarkdownPage.CodeBlock::code)
                  .collect(Collectors.joining("\n\n"))));
    }
    String content = markdown.toString().strip() + "\n";
    String checksum = Checksums.of(content + rows.stream().map(Row::chunkId).toList());
    DocPage page =
        new DocPage(
            name,
            path,
            first.version(),
            Language.detect(content),
            first.pageTitle(),
            url,
            List.of(),
            List.of(),
            content,
            checksum,
            List.copyOf(chunks));
    return new PageFile(page.key(), checksum, () -> page);
  }

  private static String pageUrl(Row row) {
    int hash = row.url().indexOf('#');
    return hash < 0 ? row.url() : row.url().substring(0, hash);
  }

  /** The page's path: its address without scheme and host, prefixed by its version label. */
  private static String pagePath(Row row, String url) {
    String path = url.replaceFirst("^[a-z]+://[^/]+/?", "").replaceAll("/+$", "");
    if (path.isBlank()) {
      path = row.pageTitle().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", "-");
    }
    return path.startsWith(row.version() + "/") || path.contains("/" + row.version() + "/")
        ? path
        : row.version() + "/" + path;
  }

  /** The URL as clients may see it: without a user name or password in it. */
  static String shown(String url) {
    return url.replaceFirst("^([a-z]+://)[^/@]*@", "$1");
  }

  private static String value(String s) {
    return s == null ? "" : s;
  }
}
