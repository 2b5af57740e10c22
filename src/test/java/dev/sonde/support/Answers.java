package dev.sonde.support;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** An execute_query answer written so a test compares it in one string. */
public final class Answers {
  private Answers() {}

  /** The answer's columns and first row, as {@code name:type=value} each. */
  public static String firstRow(JsonObject answer) {
    JsonArray columns = answer.getJsonArray("columns");
    JsonArray row = answer.getJsonArray("rows").getJsonArray(0);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      JsonObject column = columns.getJsonObject(i);
      out.add(column.getString("name") + ":" + column.getString("type") + "=" + row.getValue(i));
    }
    return String.join(" ", out);
  }
}
