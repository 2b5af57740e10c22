package dev.sonde.db;

import java.util.List;

/**
 * What an engine's plan of one read reads: the tables it scans (resolved by the engine, so a view
 * appears as the tables it reads) and the sources that are no table: table functions by name, or
 * what the engine gives no name for.
 *
 * @param tables each scanned table as catalog, schema and name (null parts where the engine has
 *     none)
 * @param others each other source, named as the engine names it ("RANGE", "virtual table")
 */
public record PlannedReads(List<TableRef> tables, List<String> others) {
  public PlannedReads {
    tables = List.copyOf(tables);
    others = List.copyOf(others);
  }
}
