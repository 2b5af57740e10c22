package dev.sonde.timeseries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.Refusals;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The chart spec's schema admits every spec shape Charts reads and refuses, in the validator's
 * words, what Charts would refuse by enum or bound, and fields it does not know.
 */
class ChartSpecArgTest {
  static final Refusals REFUSALS = Refusals.of("chart_spec", ChartSpecArg.SPEC);

  static String refusal(JsonObject spec) {
    return REFUSALS.of(new JsonObject().put("spec", spec));
  }

  static JsonObject temperature() {
    return new JsonObject().put("table", "EXAMPLE").put("tag", "temperature");
  }

  @Test
  void everySpecShapeTheEngineReadsIsAdmitted() {
    for (JsonObject spec :
        List.of(
            temperature(),
            temperature().put("kind", "metrics").put("rollup", "1분 평균").put("rollupN", 5),
            new JsonObject()
                .put("table", "EXAMPLE")
                .put("kind", "tags")
                .put("tags", new JsonArray().add("temperature").add("humidity")),
            new JsonObject().put("table", "EXAMPLE").put("tags", "temperature"),
            temperature().putNull("rollup"),
            temperature()
                .put(
                    "metrics",
                    new JsonArray()
                        .add("max")
                        .add(new JsonObject().put("agg", "min").put("label", "low"))),
            temperature()
                .put(
                    "timeRange",
                    new JsonObject().put("start", 1_700_000_000_000L).put("end", "last")),
            temperature().put("timeRange", new JsonObject().putNull("start").put("end", "now-6h")),
            temperature()
                .put("output", new JsonObject().put("chartType", "bar").put("title", "Heat")),
            temperature().put("question", "hourly average"))) {
      assertNull(refusal(spec), spec.encode());
    }
  }

  @Test
  void whatTheEngineRefusesByEnumOrBoundIsRefusedInTheValidatorsWords() {
    assertEquals(
        "invalid arguments for chart_spec: field 'spec.kind': Instance does not match any of"
            + " [\"metrics\",\"tags\",\"ohlc\",\"geomap\"] (rule: enum)",
        refusal(temperature().put("kind", "pie")));
    assertEquals(
        "invalid arguments for chart_spec: field 'spec.rollupN': 0 is less than 1 (rule: minimum)",
        refusal(temperature().put("rollup", "min").put("rollupN", 0)));
    String median =
        refusal(
            temperature()
                .put("metrics", new JsonArray().add(new JsonObject().put("agg", "median"))));
    assertTrue(
        median.contains("field 'spec.metrics.0.agg': Instance does not match any of [\"avg\""),
        median);
    String blank = refusal(new JsonObject().put("table", "").put("tag", "temperature"));
    assertTrue(blank.contains("field 'spec.table': String is too short (0 < 1)"), blank);
  }

  @Test
  void aFieldTheEngineWouldIgnoreIsRefusedByName() {
    String typo = refusal(temperature().put("timerange", new JsonObject().put("start", "last-1h")));
    assertEquals(
        "invalid arguments for chart_spec: field 'spec.timerange': Property \"timerange\" does not"
            + " match additional properties schema (rule: additionalProperties)",
        typo);
    String nested = refusal(temperature().put("output", new JsonObject().put("chart_type", "bar")));
    assertTrue(nested.contains("field 'spec.output.chart_type'"), nested);
  }
}
