package dev.sonde.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sonde.core.CallerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The report templates: the four built-in ones and the custom {@code C-*} ones read from a folder
 * of YAML files (id, title, description, match words, unit, sections), and the choice of one from
 * the data when the caller names none.
 */
public final class ReportTemplates {
  private static final Logger LOG = LoggerFactory.getLogger(ReportTemplates.class);
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** Samples at least this often (Hz) are vibration, not a trend. */
  private static final double VIBRATION_RATE = 50;

  private static final List<String> PRICE_WORDS =
      List.of("close", "open", "high", "low", "price", "stock", "gold", "coin", "btc", "fx");

  private final Map<String, ReportTemplate> byId = new LinkedHashMap<>();
  private final Map<String, List<String>> matchWords = new LinkedHashMap<>();

  public ReportTemplates(Path customFolder) {
    for (ReportTemplate t :
        List.of(
            SectionTemplate.general(),
            new FinanceTemplate(),
            new VibrationTemplate(),
            new DrivingTemplate())) {
      byId.put(t.id(), t);
    }
    if (customFolder != null && Files.isDirectory(customFolder)) {
      try (Stream<Path> files = Files.list(customFolder)) {
        files
            .filter(f -> f.getFileName().toString().matches("C-.*\\.ya?ml"))
            .sorted()
            .forEach(this::loadCustom);
      } catch (IOException e) {
        LOG.warn("report templates in {} could not be listed: {}", customFolder, e.getMessage());
      }
    }
  }

  private void loadCustom(Path file) {
    try {
      JsonNode yaml = YAML.readTree(file.toFile());
      String id = yaml.path("id").asText("");
      if (!id.startsWith("C-")) {
        throw new CallerException("id must start with C-, e.g. C-2-water");
      }
      List<String> sections = new ArrayList<>();
      yaml.path("sections").forEach(s -> sections.add(s.asText()));
      if (sections.isEmpty()) {
        throw new CallerException("sections is empty; list some of " + SectionTemplate.SECTIONS);
      }
      List<String> words = new ArrayList<>();
      yaml.path("match").forEach(w -> words.add(w.asText().toLowerCase(Locale.ROOT)));
      byId.put(
          id,
          new SectionTemplate(
              id,
              yaml.path("title").asText(id),
              yaml.path("description").asText(""),
              sections,
              yaml.path("unit").asText("")));
      matchWords.put(id, words);
    } catch (IOException | CallerException e) {
      LOG.warn("report template {} skipped: {}", file.getFileName(), e.getMessage());
    }
  }

  public List<ReportTemplate> all() {
    return List.copyOf(byId.values());
  }

  public ReportTemplate get(String id) {
    ReportTemplate t = byId.get(id);
    if (t == null) {
      throw new CallerException("unknown template_id '" + id + "'; use one of " + byId.keySet());
    }
    return t;
  }

  /** A template and why it was chosen. */
  public record Choice(ReportTemplate template, String reason) {}

  /** Picks the template the data calls for: driving, vibration, a custom match, prices, general. */
  public Choice choose(String table, List<String> tags, double sampleRateHz) {
    List<String> names = new ArrayList<>();
    names.add(table.toLowerCase(Locale.ROOT));
    tags.forEach(t -> names.add(t.toLowerCase(Locale.ROOT)));
    if (names.stream().anyMatch(n -> n.contains("speed"))
        && names.stream().anyMatch(n -> n.contains("rpm"))) {
      return new Choice(get(DrivingTemplate.ID), "the tags include speed and rpm");
    }
    if (sampleRateHz >= VIBRATION_RATE) {
      return new Choice(
          get(VibrationTemplate.ID),
          String.format(Locale.ROOT, "samples arrive at about %.0f Hz", sampleRateHz));
    }
    for (Map.Entry<String, List<String>> custom : matchWords.entrySet()) {
      for (String word : custom.getValue()) {
        if (names.stream().anyMatch(n -> n.contains(word))) {
          return new Choice(get(custom.getKey()), "the names mention '" + word + "'");
        }
      }
    }
    for (String word : PRICE_WORDS) {
      if (names.stream()
          .anyMatch(n -> n.equals(word) || n.contains(word + "_") || n.startsWith(word))) {
        return new Choice(get(FinanceTemplate.ID), "the names mention '" + word + "'");
      }
    }
    return new Choice(get(SectionTemplate.general().id()), "no specific template fits the data");
  }
}
