package dev.sonde.core;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The folders of this host that engine output names (the data directory, the home and working
 * directories, the temporary one), each shown to clients as a placeholder such as {@code <data>}:
 * where Sonde keeps its files, and as which user it runs, is nobody's business but the operator's.
 */
public final class HostPaths {
  /** One folder as spelled in output, and what clients see instead. */
  private record Mark(String path, String placeholder) {}

  private final List<Mark> marks;

  private HostPaths(List<Mark> marks) {
    this.marks = marks;
  }

  /** The marks for this process, with {@code dataDir} as Sonde's data directory. */
  public static HostPaths of(String dataDir) {
    // on a tie the first wins: the home directory is a better name than the working one
    Map<String, String> byPath = new LinkedHashMap<>();
    spellings(dataDir).forEach(p -> byPath.putIfAbsent(p, "<data>"));
    spellings(System.getProperty("user.home")).forEach(p -> byPath.putIfAbsent(p, "<home>"));
    spellings(System.getProperty("user.dir")).forEach(p -> byPath.putIfAbsent(p, "<cwd>"));
    spellings(System.getProperty("java.io.tmpdir")).forEach(p -> byPath.putIfAbsent(p, "<temp>"));
    List<Mark> marks = new ArrayList<>();
    byPath.forEach((path, placeholder) -> marks.add(new Mark(path, placeholder)));
    // the longest first, so the data directory under /tmp is <data>, not <temp>/...
    marks.sort(Comparator.comparingInt((Mark m) -> m.path().length()).reversed());
    return new HostPaths(List.copyOf(marks));
  }

  /** The absolute and the real spelling of a folder; none for the file system's root. */
  private static List<String> spellings(String folder) {
    List<String> out = new ArrayList<>();
    if (folder == null || folder.isBlank()) {
      return out;
    }
    Path absolute = Path.of(folder).toAbsolutePath().normalize();
    add(out, absolute);
    try {
      add(out, absolute.toRealPath());
    } catch (IOException e) {
      // not there (yet): only its absolute spelling can show up
    }
    return out;
  }

  private static void add(List<String> out, Path path) {
    String text = path.toString();
    if (path.getParent() != null && !out.contains(text)) {
      out.add(text);
    }
  }

  /** {@code text} with every one of these folders replaced by its placeholder. */
  public String redact(String text) {
    if (text == null || text.indexOf('/') < 0 && text.indexOf('\\') < 0) {
      return text;
    }
    String out = text;
    for (Mark mark : marks) {
      out = replace(out, mark);
    }
    return out;
  }

  private static String replace(String text, Mark mark) {
    int at = text.indexOf(mark.path());
    if (at < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    while (at >= 0) {
      int end = at + mark.path().length();
      if (startsName(text, at) && endsName(text, end)) {
        out.append(text, copied, at).append(mark.placeholder());
        copied = end;
      }
      at = text.indexOf(mark.path(), end);
    }
    return copied == 0 ? text : out.append(text, copied, text.length()).toString();
  }

  /** The folder starts here, not inside a longer name ({@code /tmp} in {@code /var/tmp}). */
  private static boolean startsName(String text, int at) {
    return at == 0 || !isNameChar(text.charAt(at - 1));
  }

  /**
   * The folder ends here ({@code /root} in {@code /root/x}, not in {@code /rootfs}); a dot ends it
   * too, since a sentence may end with a folder and {@code <home>.old} gives nothing away.
   */
  private static boolean endsName(String text, int end) {
    return end == text.length() || text.charAt(end) == '.' || !isNameChar(text.charAt(end));
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == '~';
  }

  /**
   * A JSON value with every string redacted; the same instance when nothing changed, a copy
   * otherwise, so a value other callers hold is never changed under them. Read through the raw maps
   * and lists, so an answer with nothing to hide costs no wrapper objects.
   */
  public Object redactJson(Object value) {
    if (value instanceof String s) {
      return redact(s);
    }
    if (value instanceof JsonObject object) {
      Map<String, Object> map = object.getMap();
      Map<String, Object> out = redactMap(map);
      return out == map ? object : new JsonObject(out);
    }
    if (value instanceof JsonArray array) {
      List<Object> list = array.getList();
      List<Object> out = redactList(list);
      return out == list ? array : new JsonArray(out);
    }
    if (value instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> raw = (Map<String, Object>) map;
      return redactMap(raw);
    }
    if (value instanceof List<?> list) {
      @SuppressWarnings("unchecked")
      List<Object> raw = (List<Object>) list;
      return redactList(raw);
    }
    return value;
  }

  private Map<String, Object> redactMap(Map<String, Object> map) {
    Map<String, Object> out = null;
    for (Map.Entry<String, Object> entry : map.entrySet()) {
      Object redacted = redactJson(entry.getValue());
      if (redacted != entry.getValue()) {
        out = out == null ? new LinkedHashMap<>(map) : out;
        out.put(entry.getKey(), redacted);
      }
    }
    return out == null ? map : out;
  }

  private List<Object> redactList(List<Object> list) {
    List<Object> out = null;
    for (int i = 0; i < list.size(); i++) {
      Object element = list.get(i);
      Object redacted = redactJson(element);
      if (redacted != element) {
        out = out == null ? new ArrayList<>(list) : out;
        out.set(i, redacted);
      }
    }
    return out == null ? list : out;
  }
}
