package dev.sonde.db;

import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * How one accepted read is sent where the engine cuts long values ({@link Dialect#shape}): the text
 * that runs, the columns the answer names (a cut column keeps the type it had before the cut), the
 * column types its result carries while those names are true, and whether it cuts any column. A
 * shape that {@code checks} itself fails in the engine once the read's columns are no longer those
 * it was built from, so it may be kept and sent again without describing the read first.
 */
record ReadShape(
    String text, JsonArray columns, List<String> resultTypes, boolean cuts, boolean checks) {

  /** The read sent as written, its answer named by its own result. */
  static ReadShape asWritten(String sql) {
    return new ReadShape(sql, null, null, false, false);
  }

  /** Whether a result with these column types is the one this shape was built for. */
  boolean fits(List<String> types) {
    return resultTypes == null || resultTypes.equals(types);
  }
}
