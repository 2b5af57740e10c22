package dev.sonde.db;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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

  /**
   * The answer's columns, with the types this shape says (a cut column keeps its type): named as
   * the result names them when the shape is kept (its own names may be stale after a rename its
   * check does not see), else as described (the result's are the positions c1, c2, …).
   */
  JsonArray columnsNamed(List<String> names) {
    if (!checks) {
      return columns;
    }
    JsonArray out = new JsonArray();
    for (int i = 0; i < names.size(); i++) {
      out.add(
          new JsonObject()
              .put("name", names.get(i))
              .put("type", columns.getJsonObject(i).getString("type")));
    }
    return out;
  }

  /** Whether a result with these column types is the one this shape was built for. */
  boolean fits(List<String> types) {
    if (resultTypes == null) {
      return true;
    }
    if (resultTypes.size() != types.size()) {
      return false;
    }
    for (int i = 0; i < types.size(); i++) {
      if (!baseType(resultTypes.get(i)).equals(baseType(types.get(i)))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The type a serial column has: pgjdbc names a column {@code serial} when it can trace it to its
   * table, {@code int4} when it cannot (through a UNION), and both are the same type.
   */
  static String baseType(String type) {
    return switch (type) {
      case "serial" -> "int4";
      case "bigserial" -> "int8";
      case "smallserial" -> "int2";
      default -> type;
    };
  }
}
