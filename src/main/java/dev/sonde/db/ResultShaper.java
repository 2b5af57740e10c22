package dev.sonde.db;

import dev.sonde.core.Quote;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a result inside the connection's budget: at most {@code maxRows} rows, then whole rows
 * while the value text stays under {@code maxChars}; a first row that alone is too long is cut
 * (values that fit stay, the first that overflows ends with an ellipsis, the rest become one).
 */
final class ResultShaper {

  /** The rows kept and whether anything was left out. */
  record Shaped(List<JsonArray> rows, boolean truncated) {}

  private ResultShaper() {}

  static Shaped shape(List<JsonArray> fetched, int maxRows, int maxChars) {
    boolean truncated = fetched.size() > maxRows;
    List<JsonArray> rows = new ArrayList<>();
    int used = 0;
    for (int i = 0; i < Math.min(maxRows, fetched.size()); i++) {
      JsonArray row = fetched.get(i);
      int size = chars(row);
      if (used + size > maxChars) {
        truncated = true;
        if (rows.isEmpty()) {
          rows.add(cut(row, maxChars));
        }
        break;
      }
      used += size;
      rows.add(row);
    }
    return new Shaped(rows, truncated);
  }

  static int chars(JsonArray row) {
    int total = 0;
    for (Object value : row) {
      total += value == null ? 0 : String.valueOf(value).length();
    }
    return total;
  }

  private static JsonArray cut(JsonArray row, int budget) {
    JsonArray out = new JsonArray();
    int left = budget;
    boolean overflowed = false;
    for (Object value : row) {
      if (overflowed) {
        out.add(Quote.ELLIPSIS);
        continue;
      }
      int size = value == null ? 0 : String.valueOf(value).length();
      if (size <= left) {
        out.add(value);
        left -= size;
      } else {
        out.add(Quote.cut(String.valueOf(value), Math.max(0, left)));
        overflowed = true;
      }
    }
    return out;
  }
}
