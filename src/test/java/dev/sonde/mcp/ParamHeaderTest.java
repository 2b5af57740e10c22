package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The x-mcp-header rules of SEP-2243 as a tool's schema must keep them: a client drops a tool that
 * breaks one, so Sonde refuses such a tool when it is registered.
 */
class ParamHeaderTest {
  static JsonObject property(String type, String header) {
    return new JsonObject().put("type", type).put("x-mcp-header", header);
  }

  static JsonObject object(JsonObject properties) {
    return new JsonObject().put("type", "object").put("properties", properties);
  }

  static String refusal(JsonObject schema) {
    return assertThrows(IllegalStateException.class, () -> ParamHeader.of("t", schema))
        .getMessage();
  }

  @Test
  void annotationsReachedThroughPropertiesAreFoundWithTheirPaths() {
    JsonObject schema =
        object(
            new JsonObject()
                .put("region", property("string", "Region"))
                .put("query", new JsonObject().put("type", "string"))
                .put(
                    "target", object(new JsonObject().put("shard", property("integer", "Shard")))));
    List<ParamHeader> headers = ParamHeader.of("t", schema);
    assertEquals(
        List.of(
            new ParamHeader("Region", List.of("region"), "string"),
            new ParamHeader("Shard", List.of("target", "shard"), "integer")),
        headers);
    JsonObject arguments =
        new JsonObject()
            .put("region", "us-west1")
            .put("target", new JsonObject().put("shard", 42.0));
    assertEquals("us-west1", headers.get(0).expected(arguments));
    assertEquals("42", headers.get(1).expected(arguments), "an integer as a client writes it");
    assertNull(headers.get(0).expected(new JsonObject().putNull("region")), "null means absent");
    assertNull(headers.get(1).expected(new JsonObject().put("target", "flat")));
    assertEquals(
        "true",
        new ParamHeader("F", List.of("f"), "boolean").expected(new JsonObject().put("f", true)));
    assertEquals("arguments.target.shard", headers.get(1).argument());
  }

  @Test
  void annotationsThatBreakTheRulesAreRefusedNamingTheRule() {
    assertTrue(
        refusal(object(new JsonObject().put("a", property("string", "Has Space"))))
            .contains("not an HTTP header name"));
    assertTrue(
        refusal(object(new JsonObject().put("a", property("string", ""))))
            .contains("not an HTTP header name"));
    assertTrue(
        refusal(object(new JsonObject().put("a", property("number", "Ratio"))))
            .contains("not a string, integer or boolean"));
    assertTrue(
        refusal(
                object(
                    new JsonObject()
                        .put("a", property("string", "Same"))
                        .put("b", property("string", "SAME"))))
            .contains("used twice"));
    JsonObject inItems =
        object(
            new JsonObject()
                .put(
                    "list",
                    new JsonObject()
                        .put("type", "array")
                        .put("items", object(new JsonObject().put("a", property("string", "A"))))));
    assertTrue(refusal(inItems).contains("properties alone"));
    JsonObject inAnyOf =
        object(new JsonObject())
            .put(
                "anyOf",
                new JsonArray().add(object(new JsonObject().put("a", property("string", "A")))));
    assertTrue(refusal(inAnyOf).contains("properties alone"));
    JsonObject inDefs =
        object(new JsonObject()).put("$defs", new JsonObject().put("d", property("string", "D")));
    assertTrue(refusal(inDefs).contains("properties alone"));
    assertTrue(refusal(property("string", "Root")).contains("properties alone"));
  }
}
