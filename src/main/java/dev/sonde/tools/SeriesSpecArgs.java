package dev.sonde.tools;

import static io.vertx.json.schema.common.dsl.Keywords.minimum;
import static io.vertx.json.schema.common.dsl.Schemas.anyOf;
import static io.vertx.json.schema.common.dsl.Schemas.arraySchema;
import static io.vertx.json.schema.common.dsl.Schemas.intSchema;
import static io.vertx.json.schema.common.dsl.Schemas.numberSchema;
import static io.vertx.json.schema.common.dsl.Schemas.stringSchema;

import dev.sonde.core.Unit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.common.dsl.SchemaBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The fields that a chart spec and the specs the time-series family reads as one (a forecast's, an
 * inline dashboard panel's) declare alike: tags, the period, the bucket units and multiple.
 */
public final class SeriesSpecArgs {
  /** The bucket units a rollup names, as specs spell them. */
  public static final String UNITS =
      Arrays.stream(Unit.values()).map(Unit::specName).collect(Collectors.joining(", "));

  /** A multiple of the rollup's unit. */
  public static final Arg<Object> ROLLUP_N =
      Arg.of(
          "rollupN",
          "A multiple of the unit (5 with min is 5-minute buckets); day, week and month take none",
          () -> intSchema().with(minimum(1)));

  private static final String TIME =
      "ISO-8601 (a time without offset is in the user's timezone), epoch ms, now, last (the"
          + " data's last time), first, or one of those minus a duration: now-6h, last-30m,"
          + " last-7d";

  private SeriesSpecArgs() {}

  /**
   * The tags a spec names, {@code tag} first, then {@code tags}; each field may be one string or a
   * list of them.
   */
  public static List<String> tagsNamed(JsonObject spec) {
    List<String> tags = new ArrayList<>();
    addTags(spec.getValue("tags"), tags);
    Object one = spec.getValue("tag");
    if (one instanceof String s && !tags.contains(s)) {
      tags.add(0, s);
    } else if (one instanceof JsonArray) {
      addTags(one, tags);
    }
    return tags;
  }

  private static void addTags(Object named, List<String> tags) {
    if (named instanceof JsonArray a) {
      a.forEach(t -> tags.add(String.valueOf(t)));
    } else if (named instanceof String s) {
      tags.add(s);
    }
  }

  /** One tag or several: a string, or a list of them. */
  public static SchemaBuilder<?, ?> oneOrMany() {
    return anyOf(stringSchema(), arraySchema().items(stringSchema()));
  }

  /** {@code timeRange}: {@code {start, end}}, described for the spec that holds it. */
  public static Arg<JsonObject> timeRange(String description) {
    return Arg.object("timeRange", description, time("start", "Start"), time("end", "End"));
  }

  private static Arg<Object> time(String name, String label) {
    return Arg.of(
        name, label + ": " + TIME, () -> anyOf(stringSchema().nullable(), numberSchema()));
  }
}
