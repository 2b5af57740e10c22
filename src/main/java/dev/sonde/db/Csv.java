package dev.sonde.db;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** RFC 4180 CSV of a shaped result: a header line, then one line per row. */
final class Csv {
  private Csv() {}

  static String render(JsonArray columns, List<JsonArray> rows) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < columns.size(); i++) {
      out.append(i == 0 ? "" : ",").append(field(columns.getJsonObject(i).getString("name")));
    }
    out.append("\r\n");
    for (JsonArray row : rows) {
      for (int i = 0; i < row.size(); i++) {
        Object value = row.getValue(i);
        out.append(i == 0 ? "" : ",")
            .append(
                value == null
                    ? ""
                    : field(value instanceof JsonObject j ? j.encode() : String.valueOf(value)));
      }
      out.append("\r\n");
    }
    return out.toString();
  }

  private static String field(String value) {
    boolean quote =
        value.contains(",") || value.contains("\"") || value.contains("\n") || value.contains("\r");
    return quote ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
  }
}
