package dev.sonde.db.guard;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a read names, as the guard's parse tree shows it: each table reference as the parts written
 * (catalog, schema, table; unquoted, without the empty ones), the names its WITH clauses define
 * anywhere in it, the table functions it calls, and whether it lists the catalogue itself (SHOW
 * TABLES). An account with an allow-list is judged on this before the read runs.
 */
public final class TablesNamed {
  private final List<List<String>> tables = new ArrayList<>();
  private final Set<String> withNames = new LinkedHashSet<>();
  private final List<String> tableFunctions = new ArrayList<>();
  private boolean listsCatalogue;

  void table(String... parts) {
    List<String> written = new ArrayList<>();
    for (String part : parts) {
      if (part != null && !part.isEmpty()) {
        written.add(part);
      }
    }
    if (!written.isEmpty()) {
      tables.add(List.copyOf(written));
    }
  }

  void withName(String name) {
    if (name != null && !name.isEmpty()) {
      withNames.add(name.toLowerCase(Locale.ROOT));
    }
  }

  void tableFunction(String name) {
    if (name != null && !name.isEmpty()) {
      tableFunctions.add(name.toLowerCase(Locale.ROOT));
    }
  }

  void listsCatalogue() {
    listsCatalogue = true;
  }

  public List<List<String>> tables() {
    return List.copyOf(tables);
  }

  /** Whether a WITH clause somewhere in the read defines {@code name} (case-insensitively). */
  public boolean isWithName(String name) {
    return withNames.contains(name.toLowerCase(Locale.ROOT));
  }

  public List<String> tableFunctions() {
    return List.copyOf(tableFunctions);
  }

  public boolean listsTheCatalogue() {
    return listsCatalogue;
  }
}
