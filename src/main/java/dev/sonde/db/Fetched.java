package dev.sonde.db;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The columns of a read (name and type each) and the rows fetched, already rendered; {@code
 * asShaped} is false when the result's types were not those its {@link ReadShape} was built for.
 */
record Fetched(JsonArray columns, List<JsonArray> rows, boolean asShaped) {

  /** Columns as the answer names them: a name and the engine's type name each. */
  static JsonArray columns(List<String> names, List<String> types) {
    JsonArray columns = new JsonArray();
    for (int i = 0; i < names.size(); i++) {
      columns.add(new JsonObject().put("name", names.get(i)).put("type", types.get(i)));
    }
    return columns;
  }
}
