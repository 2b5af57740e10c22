package dev.sonde.timeseries;

import dev.sonde.db.TableRef;
import java.util.List;

/**
 * A long-format time-series table: one row per tag, time and value(s). The first value column is
 * the one rollups summarise. {@code zoned} says whether the time column carries a time zone; one
 * that does not is read as UTC.
 */
public record TagTable(
    String connection,
    TableRef table,
    String tagColumn,
    String timeColumn,
    List<String> valueColumns,
    boolean zoned,
    boolean configured) {

  public String valueColumn() {
    return valueColumns.get(0);
  }

  /** A stable key for caches and rollup names: connection and qualified table. */
  public String key() {
    return connection + ":" + table.qualified();
  }
}
