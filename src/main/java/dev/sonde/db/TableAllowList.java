package dev.sonde.db;

import dev.sonde.core.CallerException;
import dev.sonde.db.guard.TablesNamed;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The tables an account may read on an engine without roles: entries {@code table}, {@code
 * schema.table}, {@code schema.*} or {@code catalog.schema.table} (and {@code catalog.schema.*}),
 * compared case-insensitively as DuckDB and SQLite compare names. A read is judged on what the
 * guard's parse tree names, before it runs, and refused in the words of an engine's own permission
 * error: every table it names must be one the list holds (a name that could mean several tables,
 * all of them), a name no table has is refused too (it may be the engine's own catalogue), and it
 * may call no table function but those that only generate rows.
 */
final class TableAllowList {
  /** Table functions that make rows from their arguments alone, reading no table. */
  private static final Set<String> GENERATORS =
      Set.of(
          "range", "generate_series", "unnest", "repeat", "repeat_row", "json_each", "json_tree");

  private final List<String[]> entries;

  private TableAllowList(List<String[]> entries) {
    this.entries = entries;
  }

  static TableAllowList of(List<String> tables) {
    List<String[]> entries = new ArrayList<>();
    for (String table : tables) {
      entries.add(table.split("\\."));
    }
    return new TableAllowList(List.copyOf(entries));
  }

  boolean allows(TableRef table) {
    for (String[] entry : entries) {
      if (matches(entry, table)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(String[] entry, TableRef table) {
    String name = entry[entry.length - 1];
    if (!name.equals("*") && !same(name, table.name())) {
      return false;
    }
    return switch (entry.length) {
      case 1 -> !name.equals("*");
      case 2 -> same(entry[0], table.schema());
      default -> same(entry[0], table.catalog()) && same(entry[1], table.schema());
    };
  }

  /**
   * Refuses, as connection {@code connection}'s engine would, a read that names what the list does
   * not hold; {@code all} are the engine's tables.
   */
  void check(TablesNamed named, List<TableRef> all, String connection) {
    if (named.listsTheCatalogue()) {
      throw denied(
          connection,
          "to list the catalogue (SHOW shows every table; list_tables shows the ones you may read)");
    }
    for (String function : named.tableFunctions()) {
      if (!GENERATORS.contains(function)) {
        throw denied(connection, "for function " + function);
      }
    }
    for (List<String> written : named.tables()) {
      List<TableRef> meant = all.stream().filter(t -> couldMean(written, t)).toList();
      boolean every = meant.stream().allMatch(this::allows);
      if (written.size() == 1 && named.isWithName(written.get(0))) {
        // a WITH query's name; refused when it could also be a table the account may not read
        if (every) {
          continue;
        }
        throw denied(
            connection,
            "for table "
                + written.get(0)
                + " (a WITH query may not take the name of a table your account may not read)");
      }
      if (meant.isEmpty() || !every) {
        throw denied(connection, "for table " + String.join(".", written));
      }
    }
  }

  /**
   * Refuses a read whose plan, as the engine resolved it, reads a table the list does not hold (a
   * view counts as the tables it reads) or calls a table function that is not a generator: the wall
   * behind the parse tree's check, for what a parser's tree does not show.
   */
  void checkPlan(PlannedReads reads, List<TableRef> all, String connection) {
    for (String source : reads.others()) {
      if (!GENERATORS.contains(source.toLowerCase(Locale.ROOT))) {
        throw denied(connection, "for " + source.toLowerCase(Locale.ROOT));
      }
    }
    for (TableRef scanned : reads.tables()) {
      boolean known =
          all.stream()
              .anyMatch(
                  t ->
                      (scanned.catalog() == null || same(scanned.catalog(), t.catalog()))
                          && (scanned.schema() == null || same(scanned.schema(), t.schema()))
                          && same(scanned.name(), t.name())
                          && allows(t));
      if (!known) {
        throw denied(connection, "for table " + scanned.name());
      }
    }
  }

  /**
   * Names compared as DuckDB and SQLite compare them: ASCII letters in either case, anything else
   * exactly (neither engine folds 'Ä' to 'ä').
   */
  static boolean same(String a, String b) {
    if (a == null || b == null || a.length() != b.length()) {
      return false;
    }
    for (int i = 0; i < a.length(); i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y && !(x < 128 && y < 128 && Character.toLowerCase(x) == Character.toLowerCase(y))) {
        return false;
      }
    }
    return true;
  }

  /** Whether a reference written as {@code parts} could name {@code table}. */
  private static boolean couldMean(List<String> parts, TableRef table) {
    int n = parts.size();
    if (!same(parts.get(n - 1), table.name())) {
      return false;
    }
    return switch (n) {
      case 1 -> true;
      // DuckDB reads a.t as schema a, or as catalog a's default schema
      case 2 -> same(parts.get(0), table.schema()) || same(parts.get(0), table.catalog());
      default -> same(parts.get(0), table.catalog()) && same(parts.get(1), table.schema());
    };
  }

  private static CallerException denied(String connection, String what) {
    return new CallerException(connection + ": ERROR: permission denied " + what);
  }
}
