package dev.sonde.docs;

import dev.sonde.config.SondeConfig.DocsSourceConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A folder of Markdown pages. With {@code versions}, each listed sub-folder is one version and
 * files outside them are ignored; without, the whole folder is {@code version}.
 */
final class MarkdownFolderSource implements DocsSource {
  private static final Pattern POST = Pattern.compile("(.*/)?(\\d{4})-(\\d{2})-(\\d{2})-([^/]+)");

  private final String name;
  private final DocsSourceConfig config;
  private final Path root;
  private final Map<String, String> versionOfFolder = new LinkedHashMap<>();
  private final Map<String, String> urlBases = new LinkedHashMap<>();
  private final List<PathMatcher> include;
  private final List<PathMatcher> exclude;
  private volatile String status;

  MarkdownFolderSource(String name, DocsSourceConfig config, Path root) {
    this.name = name;
    this.config = config;
    this.root = root;
    for (String entry : config.versions()) {
      String[] parts = entry.split("=", 2);
      versionOfFolder.put(parts[0].replaceAll("/+$", ""), parts.length == 2 ? parts[1] : parts[0]);
    }
    for (String entry : config.urlBases()) {
      String[] parts = entry.split("=", 2);
      urlBases.put(parts[0], parts[1]);
    }
    this.include = matchers(config.include());
    this.exclude = matchers(config.exclude());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return config.description();
  }

  @Override
  public Set<String> defaultVersions() {
    if (!config.defaultVersion().isBlank()) {
      return Set.of(config.defaultVersion());
    }
    return versionOfFolder.isEmpty()
        ? Set.of(config.version())
        : Set.of(versionOfFolder.values().iterator().next());
  }

  @Override
  public String status() {
    return status;
  }

  @Override
  public List<PageFile> pages() throws IOException {
    if (!Files.isDirectory(root)) {
      // the path stays in the configuration: statuses reach clients, which need not see it
      status =
          "the folder of source "
              + name
              + " (docs.sources."
              + name
              + ".path) does not exist; its pages are not searched";
      return List.of();
    }
    status = null;
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
              .sorted(Comparator.naturalOrder())
              .toList();
    }
    List<PageFile> pages = new ArrayList<>();
    for (Path file : files) {
      String path = root.relativize(file).toString().replace('\\', '/');
      if (!selected(path)) {
        continue;
      }
      String folder = path.contains("/") ? path.substring(0, path.indexOf('/')) : "";
      String version = config.version();
      String trail = path;
      if (!versionOfFolder.isEmpty()) {
        version = versionOfFolder.get(folder);
        if (version == null) {
          continue;
        }
        trail = path.substring(folder.length() + 1);
      }
      byte[] bytes = Files.readAllBytes(file);
      String checksum = Checksums.of(bytes);
      String label = version;
      String trailPath = trail;
      pages.add(
          new PageFile(
              name + "/" + path,
              checksum,
              () ->
                  DocPage.fromMarkdown(
                      name,
                      path,
                      trailPath,
                      label,
                      url(path),
                      new String(bytes, StandardCharsets.UTF_8),
                      checksum)));
    }
    return pages;
  }

  private boolean selected(String path) {
    Path relative = Path.of(path);
    if (!include.isEmpty() && include.stream().noneMatch(m -> m.matches(relative))) {
      return false;
    }
    return exclude.stream().noneMatch(m -> m.matches(relative));
  }

  /**
   * The page's public address: its URL base (the longest matching {@code urlBases} prefix, else
   * {@code urlBase}) plus its path without {@code .md}; Jekyll posts become {@code
   * yyyy/mm/dd/slug.html}.
   */
  String url(String path) {
    String base = config.urlBase();
    String rest = path;
    int longest = -1;
    for (Map.Entry<String, String> e : urlBases.entrySet()) {
      if (path.startsWith(e.getKey()) && e.getKey().length() > longest) {
        longest = e.getKey().length();
        base = e.getValue();
        rest = path.substring(e.getKey().length());
      }
    }
    if (base.isBlank()) {
      return "";
    }
    rest = rest.replaceFirst("\\.md$", "");
    Matcher post = POST.matcher(rest);
    if (post.matches()) {
      return base
          + post.group(2)
          + "/"
          + post.group(3)
          + "/"
          + post.group(4)
          + "/"
          + post.group(5)
          + ".html";
    }
    if (rest.equals("index") || rest.endsWith("/index")) {
      rest = rest.substring(0, rest.length() - "index".length());
    }
    return base + rest;
  }

  private static List<PathMatcher> matchers(List<String> globs) {
    Set<String> unique = new LinkedHashSet<>(globs);
    return unique.stream().map(g -> FileSystems.getDefault().getPathMatcher("glob:" + g)).toList();
  }
}
