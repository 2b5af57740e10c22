package dev.sonde.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown page split by its headings: front matter read, fenced code kept apart from prose (a
 * {@code #} inside a code block is not a heading), each section with its heading trail and anchor.
 */
public record MarkdownPage(
    String title,
    List<String> keywords,
    List<String> redirects,
    String body,
    List<Section> sections) {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*\\s*$");
  private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(`{3,}|~{3,})\\s*([^`\\s{]*)");
  private static final Pattern ATTRIBUTE_LIST = Pattern.compile("\\s*\\{:?[^}]*}\\s*$");

  /**
   * One section: the text from its heading to the next heading of any level. {@code trail} holds
   * the headings above it; {@code level} is 0 for the text before the first heading.
   */
  public record Section(
      int index,
      int level,
      String heading,
      String anchor,
      List<String> trail,
      String text,
      String prose,
      List<CodeBlock> code) {}

  /** A fenced code block and its language ({@code ""} when the fence names none). */
  public record CodeBlock(String language, String code) {}

  /** Parses a page; {@code fallbackTitle} is used when neither front matter nor an H1 names it. */
  public static MarkdownPage parse(String markdown, String fallbackTitle) {
    String text = markdown.replace("\r\n", "\n");
    Map<String, Object> front = new HashMap<>();
    if (text.startsWith("---\n")) {
      int end = text.indexOf("\n---", 4);
      if (end > 0) {
        front = frontMatter(text.substring(4, end));
        int next = text.indexOf('\n', end + 4);
        text = next < 0 ? "" : text.substring(next + 1);
      }
    }
    List<Section> sections = split(text);
    String title = string(front.get("title"));
    if (title.isEmpty()) {
      title =
          sections.stream()
              .filter(s -> s.level() == 1)
              .map(Section::heading)
              .findFirst()
              .orElse(fallbackTitle);
    }
    List<String> keywords = new ArrayList<>(strings(front.get("keywords")));
    keywords.addAll(strings(front.get("tags")));
    return new MarkdownPage(title, keywords, strings(front.get("redirect_from")), text, sections);
  }

  /** Sections whose heading contains {@code keyword} (any case), each with its sub-sections. */
  public List<Section> sectionsNamed(String keyword) {
    String wanted = keyword.toLowerCase(Locale.ROOT).trim();
    List<Section> out = new ArrayList<>();
    for (int i = 0; i < sections.size(); i++) {
      Section s = sections.get(i);
      if (s.level() > 0 && s.heading().toLowerCase(Locale.ROOT).contains(wanted)) {
        out.add(s);
        for (int j = i + 1; j < sections.size() && sections.get(j).level() > s.level(); j++) {
          out.add(sections.get(j));
        }
        while (i + 1 < sections.size() && sections.get(i + 1).level() > s.level()) {
          i++;
        }
      }
    }
    return out;
  }

  public List<CodeBlock> codeBlocks() {
    return sections.stream().flatMap(s -> s.code().stream()).toList();
  }

  private static List<Section> split(String text) {
    List<Section> sections = new ArrayList<>();
    List<String> trail = new ArrayList<>();
    List<Integer> levels = new ArrayList<>();
    Map<String, Integer> anchors = new HashMap<>();
    StringBuilder all = new StringBuilder();
    StringBuilder prose = new StringBuilder();
    StringBuilder code = new StringBuilder();
    List<CodeBlock> blocks = new ArrayList<>();
    String fence = null;
    String fenceLanguage = "";
    int level = 0;
    String heading = "";
    List<String> headingTrail = List.of();
    for (String line : text.split("\n", -1)) {
      Matcher f = FENCE.matcher(line);
      if (fence == null && f.find()) {
        fence = f.group(1);
        fenceLanguage = f.group(2).toLowerCase(Locale.ROOT);
        code.setLength(0);
        all.append(line).append('\n');
        continue;
      }
      if (fence != null) {
        if (line.trim().startsWith(fence)
            && line.trim().replace(fence.substring(0, 1), "").isEmpty()) {
          blocks.add(new CodeBlock(fenceLanguage, code.toString().stripTrailing()));
          fence = null;
        } else {
          code.append(line).append('\n');
        }
        all.append(line).append('\n');
        continue;
      }
      Matcher h = HEADING.matcher(line);
      if (h.matches()) {
        add(sections, level, heading, anchors, headingTrail, all, prose, blocks);
        level = h.group(1).length();
        heading = ATTRIBUTE_LIST.matcher(h.group(2)).replaceAll("").replace("`", "").trim();
        while (!levels.isEmpty() && levels.get(levels.size() - 1) >= level) {
          levels.remove(levels.size() - 1);
          trail.remove(trail.size() - 1);
        }
        headingTrail = List.copyOf(trail);
        levels.add(level);
        trail.add(heading);
        all.setLength(0);
        prose.setLength(0);
        blocks = new ArrayList<>();
        all.append(line).append('\n');
        continue;
      }
      all.append(line).append('\n');
      prose.append(line).append('\n');
    }
    if (fence != null) {
      blocks.add(new CodeBlock(fenceLanguage, code.toString().stripTrailing()));
    }
    add(sections, level, heading, anchors, headingTrail, all, prose, blocks);
    return sections;
  }

  private static void add(
      List<Section> sections,
      int level,
      String heading,
      Map<String, Integer> anchors,
      List<String> trail,
      StringBuilder all,
      StringBuilder prose,
      List<CodeBlock> blocks) {
    String text = all.toString().strip();
    if (level == 0 && text.isEmpty()) {
      return;
    }
    String anchor = level == 0 ? "" : uniqueAnchor(heading, anchors);
    sections.add(
        new Section(
            sections.size(),
            level,
            heading,
            anchor,
            trail,
            text,
            prose.toString().strip(),
            List.copyOf(blocks)));
  }

  /** GitHub-style anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
  static String uniqueAnchor(String heading, Map<String, Integer> seen) {
    String base =
        heading
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
            .trim()
            .replaceAll("\\s", "-");
    int n = seen.merge(base, 1, Integer::sum);
    return n == 1 ? base : base + "-" + (n - 1);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> frontMatter(String yaml) {
    try {
      JsonNode node = YAML.readTree(yaml);
      return node != null && node.isObject() ? YAML.convertValue(node, Map.class) : Map.of();
    } catch (Exception e) {
      return Map.of();
    }
  }

  private static String string(Object value) {
    return value == null ? "" : value.toString().trim();
  }

  private static List<String> strings(Object value) {
    if (value instanceof List<?> list) {
      return list.stream().map(MarkdownPage::string).filter(s -> !s.isEmpty()).toList();
    }
    String single = string(value);
    return single.isEmpty() ? List.of() : List.of(single);
  }
}
