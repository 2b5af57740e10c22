package dev.sonde.db;

import io.vertx.core.json.JsonArray;
import java.util.List;

/** The columns of a read (name and type each) and the rows fetched, already rendered. */
record Fetched(JsonArray columns, List<JsonArray> rows) {}
