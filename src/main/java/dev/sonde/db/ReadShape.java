package dev.sonde.db;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * How one accepted read is sent where the engine cuts long values ({@link Dialect#shape}): the text
 * that runs, the columns the answer names (a cut column keeps the type it had before the cut), the
 * column types its result carries while those names are true, and whether it cuts any column. A
 * shape that {@code checks} itself fails in the engine once the read's columns are no longer those
 * it was built from (or has nothing it could ever cut), so it may be kept and sent again without
 * describing the read first.
 */
record ReadShape(
    String text, JsonArray columns, List<String> resultTypes, boolean cuts, boolean checks) {

  /**
   * The longest shaped text kept for later: a shape holds its text and its columns, and a
   * connection keeps up to {@link TextCache#MAX_ENTRIES} of them.
   */
  static final int MAX_KEPT_CHARS = 16_384;

  /** The read sent as written this once, its answer named by its own result. */
  static ReadShape asWritten(String sql) {
    return new ReadShape(sql, null, null, false, false);
  }

  /**
   * A read that cannot be wrapped (it is no query, or returns no columns), sent as written: nothing
   * it returns could be cut however its tables change, so it may be kept.
   */
  static ReadShape unwrappable(String sql) {
    return new ReadShape(sql, null, null, false, true);
  }

  /**
   * What was read with this shape: the answer's columns carry the types the shape says (a cut
   * column keeps its type) while the result still has the types it was built for, named as the
   * result names them when the shape checks itself (its own names may be stale after a rename the
   * check does not see) and as described otherwise (the result's are the positions c1, c2, …); else
   * the result's own columns, and the shape no longer fits.
   */
  Fetched fetched(List<String> names, List<String> types, List<JsonArray> rows) {
    if (!fits(types)) {
      return new Fetched(Fetched.columns(names, types), rows, false);
    }
    if (columns == null) {
      return new Fetched(Fetched.columns(names, types), rows, true);
    }
    if (!checks) {
      return new Fetched(columns, rows, true);
    }
    JsonArray out = new JsonArray();
    for (int i = 0; i < names.size(); i++) {
      out.add(
          new JsonObject()
              .put("name", names.get(i))
              .put("type", columns.getJsonObject(i).getString("type")));
    }
    return new Fetched(out, rows, true);
  }

  /**
   * {@code fetched}, after keeping this shape for {@code sql} when it checks itself, is not too
   * long and the result still fit it, or forgetting the kept one when the result did not: a column
   * changed type without failing the check, so the read is described afresh next time.
   */
  Fetched settle(TextCache<ReadShape> shapes, String sql, Fetched fetched) {
    if (!fetched.asShaped()) {
      shapes.forget(sql);
    } else if (checks && text.length() <= MAX_KEPT_CHARS) {
      shapes.keep(sql, this);
    }
    return fetched;
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
