package dev.sonde.chatbi;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import dev.sonde.workspace.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The domains in an ontology folder ({@code conf/ontology} by default), one YAML file each. A file
 * that cannot be used is kept out with the reason, so chat_bi can say what to fix instead of
 * answering from a half-read domain.
 */
public final class Ontologies {
  private static final ObjectMapper YAML =
      new ObjectMapper(
              new YAMLFactory()
                  .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                  .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES))
          .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final Map<String, Ontology> byDomain = new LinkedHashMap<>();
  private final Map<String, String> refused = new LinkedHashMap<>();

  private Ontologies() {}

  /** Every {@code *.yaml} in {@code folder}; none when the folder does not exist. */
  public static Ontologies load(Path folder) {
    Ontologies out = new Ontologies();
    if (folder == null || !Files.isDirectory(folder)) {
      return out;
    }
    try (Stream<Path> files = Files.list(folder)) {
      files
          .filter(f -> f.getFileName().toString().matches("[^.].*\\.ya?ml"))
          .sorted()
          .forEach(out::add);
    } catch (IOException e) {
      out.refused.put(folder.getFileName().toString(), "the folder could not be listed");
    }
    return out;
  }

  private void add(Path file) {
    String name = file.getFileName().toString();
    try {
      Ontology o = read(Files.readString(file));
      List<String> problems = o.problems();
      if (!problems.isEmpty()) {
        refused.put(name, String.join("; ", problems));
      } else if (byDomain.containsKey(o.domain())) {
        refused.put(name, "domain " + o.domain() + " is already defined by another file");
      } else {
        byDomain.put(o.domain(), o);
      }
    } catch (IOException e) {
      refused.put(name, e.getMessage());
    }
  }

  /** Parses one domain; errors say where (the field's path, or the line) and what was expected. */
  static Ontology read(String yaml) throws IOException {
    try {
      return YAML.readValue(yaml, Ontology.class);
    } catch (UnrecognizedPropertyException e) {
      throw new IOException(
          "unknown field '"
              + e.getPropertyName()
              + "'"
              + at(e)
              + "; the fields there are "
              + e.getKnownPropertyIds(),
          e);
    } catch (InvalidFormatException e) {
      Class<?> type = e.getTargetType();
      String accepted =
          type != null && type.isEnum()
              ? "; use one of "
                  + Arrays.stream(type.getEnumConstants())
                      .map(c -> c.toString().toLowerCase(Locale.ROOT))
                      .toList()
              : "";
      throw new IOException("'" + e.getValue() + "'" + at(e) + " is not accepted" + accepted, e);
    } catch (JsonMappingException e) {
      throw new IOException("not a valid ontology" + at(e) + ": " + e.getOriginalMessage(), e);
    } catch (JacksonException e) {
      String line = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
      throw new IOException("not valid YAML" + line + ": " + e.getOriginalMessage(), e);
    }
  }

  /** " in entities[0].attributes[1]", from the path Jackson was reading. */
  private static String at(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    List<JsonMappingException.Reference> refs = e.getPath();
    for (int i = 0; i < refs.size() - (e instanceof UnrecognizedPropertyException ? 1 : 0); i++) {
      JsonMappingException.Reference r = refs.get(i);
      if (r.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        path.append('[').append(r.getIndex()).append(']');
      }
    }
    return path.length() == 0 ? " at the top level" : " in " + path;
  }

  static String write(Ontology ontology) throws IOException {
    return YAML.writeValueAsString(ontology);
  }

  /** Saves {@code ontology} as {@code folder/<domain>.yaml}, atomically, for a person to edit. */
  public static Path save(Path folder, Ontology ontology) throws IOException {
    List<String> problems = ontology.problems();
    if (!problems.isEmpty()) {
      throw new IOException("the ontology is not valid: " + String.join("; ", problems));
    }
    String text =
        "# Ontology of domain "
            + ontology.domain()
            + ", bootstrapped from connection "
            + ontology.connection()
            + "'s catalog.\n# Edit freely: add synonyms in en/zh/ja/ko, metrics, values and"
            + " joins.\n"
            + write(ontology);
    return Workspace.writeAtomically(
        folder.resolve(ontology.domain() + ".yaml"),
        out -> out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  public List<Ontology> all() {
    return List.copyOf(byDomain.values());
  }

  /** File name to why it was not loaded. */
  public Map<String, String> refused() {
    return Map.copyOf(refused);
  }

  /**
   * The domain a question goes to: the one named; else the only one; else the one marked default.
   * Anything else is refused naming the domains there are.
   */
  public Ontology choose(String domain) {
    if (domain != null && !domain.isBlank()) {
      Ontology o = byDomain.get(domain);
      if (o == null) {
        throw new CallerException(
            "no domain " + Quote.of(domain) + refusedNote(domain) + "; domains: " + names());
      }
      return o;
    }
    if (byDomain.isEmpty()) {
      throw new CallerException(
          "no domain is defined"
              + (refused.isEmpty() ? "" : " (files refused: " + refused + ")")
              + "; add a YAML file to the ontology folder or bootstrap one from a connection");
    }
    if (byDomain.size() == 1) {
      return byDomain.values().iterator().next();
    }
    List<Ontology> defaults = byDomain.values().stream().filter(Ontology::defaultDomain).toList();
    if (defaults.size() == 1) {
      return defaults.get(0);
    }
    throw new CallerException(
        (defaults.isEmpty() ? "several domains and none is marked default" : "several defaults")
            + "; name one in domain: "
            + names());
  }

  private String refusedNote(String domain) {
    String reason = refused.get(domain + ".yaml");
    return reason == null ? "" : " (its file was refused: " + reason + ")";
  }

  private List<String> names() {
    return new ArrayList<>(byDomain.keySet());
  }
}
