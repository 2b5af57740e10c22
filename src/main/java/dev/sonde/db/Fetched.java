package dev.sonde.db;

import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * The columns of a read (name and type each) and the rows fetched, already rendered; {@code
 * asShaped} is false when the result's types were not those its {@link ReadShape} was built for.
 */
record Fetched(JsonArray columns, List<JsonArray> rows, boolean asShaped) {}
