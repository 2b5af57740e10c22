package dev.sonde.docs;

import dev.sonde.core.Language;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A documentation page as the index holds it: where it comes from, its Markdown and its chunks.
 * {@code key} ({@code source/path}) names it in tools and in {@code sonde://docs/} resources.
 */
public record DocPage(
    String source,
    String path,
    String version,
    Language language,
    String title,
    String url,
    List<String> keywords,
    List<String> redirects,
    String content,
    String checksum,
    List<DocChunk> chunks) {

  public String key() {
    return source + "/" + path;
  }

  /**
   * A Markdown page chunked by its headings. {@code trailPath} is the page's path below its version
   * folder, which gives the breadcrumb its first parts ({@code sql/statements} → SQL › Statements).
   */
  public static DocPage fromMarkdown(
      String source,
      String path,
      String trailPath,
      String version,
      String url,
      String markdown,
      String checksum) {
    String fileName = path.substring(path.lastIndexOf('/') + 1).replaceFirst("\\.md$", "");
    MarkdownPage page = MarkdownPage.parse(markdown, fileName.replace('_', ' '));
    List<String> folders = new ArrayList<>(Arrays.asList(trailPath.split("/")));
    folders.remove(folders.size() - 1);
    String crumbs =
        folders.stream()
            .filter(f -> !f.isEmpty())
            .map(DocPage::folderLabel)
            .collect(Collectors.joining(" › "));
    List<DocChunk> chunks = new ArrayList<>();
    for (MarkdownPage.Section s : page.sections()) {
      String section = s.level() <= 1 ? page.title() : s.heading();
      List<String> trail = new ArrayList<>();
      if (!crumbs.isEmpty()) {
        trail.add(crumbs);
      }
      trail.add(page.title());
      s.trail().stream().filter(h -> !h.equals(page.title())).forEach(trail::add);
      if (s.level() > 1) {
        trail.add(s.heading());
      }
      String code =
          s.code().stream().map(MarkdownPage.CodeBlock::code).collect(Collectors.joining("\n\n"));
      chunks.add(
          new DocChunk(
              source + ":" + path + (s.anchor().isEmpty() ? "" : "#" + s.anchor()),
              section,
              String.join(" › ", trail),
              s.anchor().isEmpty() || url.isEmpty() ? url : url + "#" + s.anchor(),
              s.prose(),
              code));
    }
    List<String> keywords = new ArrayList<>(page.keywords());
    if (keywords.isEmpty()) {
      page.sections().stream()
          .filter(s -> s.level() == 2)
          .limit(6)
          .forEach(s -> keywords.add(s.heading()));
    }
    return new DocPage(
        source,
        path,
        version,
        Language.detect(page.body()),
        page.title(),
        url,
        List.copyOf(keywords),
        page.redirects(),
        markdown,
        checksum,
        List.copyOf(chunks));
  }

  private static String folderLabel(String folder) {
    String words = folder.replace('_', ' ').replace('-', ' ');
    return words.length() <= 3
        ? words.toUpperCase(Locale.ROOT)
        : Character.toUpperCase(words.charAt(0)) + words.substring(1);
  }
}
