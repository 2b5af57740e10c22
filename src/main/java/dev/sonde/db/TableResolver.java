package dev.sonde.db;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Finds a table from {@code table}, {@code schema.table} or {@code db.schema.table}. An unqualified
 * name goes through the search path; when several other schemas hold it the caller is asked to
 * qualify it, and an unknown name comes back with its closest matches.
 */
final class TableResolver {
  private TableResolver() {}

  static TableRef resolve(String input, List<TableRef> tables, List<String> searchPath) {
    String[] parts = split(input);
    List<TableRef> matches = new ArrayList<>();
    for (TableRef t : tables) {
      if (matches(t, parts)) {
        matches.add(t);
      }
    }
    if (matches.size() == 1) {
      return matches.get(0);
    }
    if (matches.isEmpty()) {
      throw new CallerException(
          "unknown table "
              + Quote.of(input)
              + suggestions(input, tables)
              + "; list_tables shows every table");
    }
    for (String schema : searchPath) {
      List<TableRef> inPath =
          matches.stream().filter(t -> schema.equalsIgnoreCase(nullToEmpty(t.schema()))).toList();
      if (inPath.size() == 1) {
        return inPath.get(0);
      }
    }
    List<String> options =
        matches.stream()
            .map(
                t ->
                    nullToEmpty(t.schema()).isEmpty() ? t.qualified() : t.schema() + "." + t.name())
            .sorted()
            .toList();
    throw new CallerException(
        "ambiguous table name "
            + Quote.of(input)
            + "; qualify it with the schema: "
            + String.join(", ", options),
        options);
  }

  private static boolean matches(TableRef t, String[] parts) {
    int n = parts.length;
    if (!t.name().equalsIgnoreCase(parts[n - 1])) {
      return false;
    }
    if (n >= 2 && !nullToEmpty(t.schema()).equalsIgnoreCase(parts[n - 2])) {
      return false;
    }
    return n < 3 || nullToEmpty(t.catalog()).equalsIgnoreCase(parts[n - 3]);
  }

  /** Splits on dots outside double quotes; quotes are removed. */
  static String[] split(String input) {
    List<String> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (char c : input.trim().toCharArray()) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    if (parts.size() > 3 || parts.stream().anyMatch(String::isBlank)) {
      throw new CallerException(
          "table names are table, schema.table or database.schema.table; got " + Quote.of(input));
    }
    return parts.toArray(String[]::new);
  }

  private static String suggestions(String input, List<TableRef> tables) {
    String wanted = split(input)[split(input).length - 1].toLowerCase(Locale.ROOT);
    List<String> close =
        tables.stream()
            .filter(
                t ->
                    distance(t.name().toLowerCase(Locale.ROOT), wanted)
                            <= Math.max(2, wanted.length() / 3)
                        || t.name().toLowerCase(Locale.ROOT).contains(wanted)
                        || wanted.contains(t.name().toLowerCase(Locale.ROOT)))
            .sorted(
                Comparator.comparingInt(t -> distance(t.name().toLowerCase(Locale.ROOT), wanted)))
            .limit(5)
            .map(TableRef::qualified)
            .toList();
    return close.isEmpty() ? "" : "; did you mean " + String.join(", ", close) + "?";
  }

  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] =
            Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
