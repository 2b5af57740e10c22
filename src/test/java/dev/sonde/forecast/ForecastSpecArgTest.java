package dev.sonde.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.Refusals;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The forecast spec's schema admits every spec TableForecasts reads, every method name, alias and
 * rank it knows, and refuses in the validator's words what the engine refuses by bound, and fields
 * it does not know.
 */
class ForecastSpecArgTest {
  static final Refusals REFUSALS = Refusals.of("forecast_spec", ForecastSpecArg.SPEC);

  static String refusal(JsonObject spec) {
    return REFUSALS.of(new JsonObject().put("spec", spec));
  }

  static JsonObject gold() {
    return new JsonObject().put("table", "GOLD").put("tag", "close");
  }

  @Test
  void everySpecShapeTheEngineReadsIsAdmitted() {
    for (JsonObject spec :
        List.of(
            gold(),
            new JsonObject().put("table", "GOLD"),
            new JsonObject()
                .put("table", "GOLD")
                .put("tags", new JsonArray().add("open").add("close")),
            new JsonObject().put("table", "GOLD").put("tags", "close"),
            gold().put("rollup", "day").put("horizon", 30).put("lookback", 200),
            gold().put("rollup", "5min").put("rollupN", 5),
            gold().putNull("rollup"),
            gold().put("horizon", TableForecasts.MAX_HORIZON),
            gold().put("rank", 2),
            gold()
                .put(
                    "timeRange",
                    new JsonObject().put("start", 1_700_000_000_000L).put("end", "now-30d")),
            gold().put("timeRange", new JsonObject().putNull("start").put("end", "last")),
            gold().put("output", new JsonObject().put("title", "Gold").put("subtitle", "daily")))) {
      assertNull(refusal(spec), spec.encode());
    }
  }

  @Test
  void everyMethodAliasAndRankTheEngineKnowsIsAdmitted() {
    List<String> methods = new ArrayList<>(Forecaster.methods());
    methods.add(Forecaster.AUTO);
    methods.addAll(TableForecasts.ALIASES.keySet());
    methods.addAll(List.of("Theta", "rank2", "rank #3", "2nd", "2위"));
    for (String method : methods) {
      assertNull(refusal(gold().put("method", method)), method);
      TableForecasts.choice(new JsonObject().put("method", method));
    }
  }

  @Test
  void whatTheEngineRefusesByBoundIsRefusedInTheValidatorsWords() {
    assertEquals(
        "invalid arguments for forecast_spec: field 'spec.horizon': 1001 is greater than 1000"
            + " (rule: maximum)",
        refusal(gold().put("horizon", TableForecasts.MAX_HORIZON + 1)));
    assertEquals(
        "invalid arguments for forecast_spec: field 'spec.rank': 0 is less than 1 (rule: minimum)",
        refusal(gold().put("rank", 0)));
    String blank = refusal(new JsonObject().put("table", ""));
    assertTrue(blank.contains("field 'spec.table': String is too short (0 < 1)"), blank);
    String missing = refusal(new JsonObject().put("tag", "close"));
    assertTrue(missing.contains("required property \"table\""), missing);
  }

  @Test
  void aFieldTheEngineWouldIgnoreIsRefusedByName() {
    assertEquals(
        "invalid arguments for forecast_spec: field 'spec.horizion': Property \"horizion\" does"
            + " not match additional properties schema (rule: additionalProperties)",
        refusal(gold().put("horizion", 30)));
    String nested = refusal(gold().put("output", new JsonObject().put("chartType", "bar")));
    assertTrue(nested.contains("field 'spec.output.chartType'"), nested);
  }
}
