package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.Validator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The quick check may only ever accept what the JSON Schema validator accepts. */
class QuickArgumentCheckTest {
  private static final List<Object> VALUES =
      List.of(
          "",
          "x",
          "SELECT 1",
          "json",
          "csv",
          "iso",
          "ms",
          "Asia/Shanghai",
          "a\uD83D\uDE00",
          0,
          1,
          -1,
          7,
          1_000_000,
          1_000_001,
          9_007_199_254_740_993L,
          1.0,
          2.5,
          true,
          false,
          new JsonArray().add("a"),
          new JsonObject().put("k", 1));

  @Test
  void neverAcceptsWhatTheValidatorRefusesOnEveryShippedToolSchema() throws Exception {
    JsonArray tools =
        new JsonArray(Files.readString(Path.of("src/test/resources/golden/tools-list.json")));
    Random random = new Random(42);
    int quickAccepted = 0;
    int covered = 0;
    for (Object entry : tools) {
      JsonObject schema = ((JsonObject) entry).getJsonObject("inputSchema");
      QuickArgumentCheck quick = QuickArgumentCheck.of(schema);
      if (quick == null) {
        continue;
      }
      covered++;
      Validator validator =
          Validator.create(
              JsonSchema.of(schema.copy()),
              new JsonSchemaOptions()
                  .setDraft(Draft.DRAFT202012)
                  .setBaseUri("https://sonde.dev/test")
                  .setOutputFormat(OutputFormat.Flag));
      List<String> names = new ArrayList<>(schema.getJsonObject("properties").fieldNames());
      names.add("unexpected");
      for (int i = 0; i < 3000; i++) {
        JsonObject arguments = new JsonObject();
        for (String name : names) {
          if (random.nextInt(3) > 0) {
            arguments.put(name, VALUES.get(random.nextInt(VALUES.size())));
          }
        }
        if (quick.accepts(arguments)) {
          quickAccepted++;
          assertTrue(
              validator.validate(arguments).getValid(),
              ((JsonObject) entry).getString("name") + " " + arguments.encode());
        }
      }
    }
    assertTrue(covered >= 8, "most shipped tools have a simple schema: " + covered);
    assertTrue(quickAccepted > 1000, "the quick path is taken: " + quickAccepted);
  }

  @Test
  void acceptsTheCommonCallsAndLeavesTheRestToTheValidator() {
    JsonObject schema =
        new JsonObject()
            .put("type", "object")
            .put(
                "properties",
                new JsonObject()
                    .put("sql", new JsonObject().put("type", "string").put("minLength", 1))
                    .put(
                        "format",
                        new JsonObject()
                            .put("type", "string")
                            .put("enum", new JsonArray().add("json").add("csv")))
                    .put(
                        "limit",
                        new JsonObject()
                            .put("type", "integer")
                            .put("minimum", 1)
                            .put("maximum", 10)))
            .put("required", new JsonArray().add("sql"))
            .put("additionalProperties", false);
    QuickArgumentCheck quick = QuickArgumentCheck.of(schema);
    assertNotNull(quick);
    assertTrue(quick.accepts(new JsonObject().put("sql", "SELECT 1").put("limit", 10)));
    assertFalse(quick.accepts(new JsonObject().put("sql", "")));
    assertFalse(quick.accepts(new JsonObject().put("limit", 1)));
    assertFalse(quick.accepts(new JsonObject().put("sql", "x").put("format", "xml")));
    assertFalse(quick.accepts(new JsonObject().put("sql", "x").put("limit", 11)));
    assertFalse(quick.accepts(new JsonObject().put("sql", "x").put("limit", 2.0)));
    assertFalse(quick.accepts(new JsonObject().put("sql", "x").put("other", 1)));
    JsonObject withDefault = schema.copy();
    withDefault.getJsonObject("properties").getJsonObject("limit").put("default", 5);
    // a default only annotates: the quick path stays for the tools that publish one
    assertTrue(QuickArgumentCheck.of(withDefault).accepts(new JsonObject().put("sql", "x")));
    assertEquals(
        null,
        QuickArgumentCheck.of(
            schema
                .copy()
                .put(
                    "properties",
                    new JsonObject().put("p", new JsonObject().put("type", "array")))));
    assertNull(QuickArgumentCheck.of(schema.copy().put("oneOf", new JsonArray())));
  }
}
