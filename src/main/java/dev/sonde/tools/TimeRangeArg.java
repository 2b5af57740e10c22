package dev.sonde.tools;

import static io.vertx.json.schema.common.dsl.Schemas.anyOf;
import static io.vertx.json.schema.common.dsl.Schemas.numberSchema;
import static io.vertx.json.schema.common.dsl.Schemas.stringSchema;

import io.vertx.core.json.JsonObject;

/**
 * The {@code timeRange} of a chart spec, and of the forecast specs whose period the time-series
 * family reads as a chart's: a start and an end, each a time that family reads.
 */
public final class TimeRangeArg {
  private static final String TIME =
      "ISO-8601 (a time without offset is in the user's timezone), epoch ms, now, last (the"
          + " data's last time), first, or one of those minus a duration: now-6h, last-30m,"
          + " last-7d";

  private TimeRangeArg() {}

  /** {@code {start, end}}, described for the spec that holds it. */
  public static Arg<JsonObject> timeRange(String description) {
    return Arg.object("timeRange", description, time("start", "Start"), time("end", "End"));
  }

  private static Arg<Object> time(String name, String label) {
    return Arg.of(
        name, label + ": " + TIME, () -> anyOf(stringSchema().nullable(), numberSchema()));
  }
}
