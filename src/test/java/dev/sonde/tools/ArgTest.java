package dev.sonde.tools;

import static io.vertx.json.schema.common.dsl.Keywords.minLength;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.Refusals;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tool's arguments are declared once: the schema clients see and the values the tool reads come
 * from the same {@link Arg}s, and the validator words what the declaration refuses.
 */
class ArgTest {
  static final Arg<String> NAME = Arg.string("name", "Who", minLength(1)).required();
  static final Arg<Integer> LIMIT = Arg.integer("limit", "How many", 1, 50).orElse(8);
  static final Arg<String> MODE = Arg.oneOf("mode", "How", "fast", "exact").orElse("fast");
  static final Arg<List<String>> TAGS = Arg.strings("tags", "Which");
  static final Arg<Boolean> UNDECLARED = Arg.flag("verbose", "Say more");

  static final ToolSpec SPEC =
      ToolSpec.builder("arg_demo").description("d").input(NAME, LIMIT, MODE, TAGS).build();

  static ToolContext called(JsonObject arguments) {
    return new ToolContext(null, SPEC, arguments, MultiMap.caseInsensitiveMultiMap(), null, null);
  }

  static String refusal(JsonObject arguments) {
    return new Refusals(SPEC).of(arguments);
  }

  @Test
  void theSchemaIsMadeOfTheDeclarationsInTheirOrder() {
    JsonObject schema = SPEC.inputSchema();
    assertEquals(
        List.of("name", "limit", "mode", "tags"),
        List.copyOf(schema.getJsonObject("properties").fieldNames()));
    assertEquals(new JsonArray().add("name"), schema.getJsonArray("required"));
    assertEquals(false, schema.getValue("additionalProperties"));
    assertEquals(
        new JsonObject()
            .put("type", "integer")
            .put("description", "How many")
            .put("minimum", 1)
            .put("maximum", 50)
            .put("default", 8),
        schema.getJsonObject("properties").getJsonObject("limit"));
    // the DSL gives every schema a random $id: the listing would change on every start
    assertEquals(
        schema,
        ToolSpec.builder("arg_demo")
            .description("d")
            .input(NAME, LIMIT, MODE, TAGS)
            .build()
            .inputSchema());
    assertTrue(!schema.encode().contains("$id"), schema.encode());
  }

  @Test
  void theToolReadsWhatWasSentOrTheDefaultTheSchemaPublishes() {
    ToolContext sent =
        called(
            new JsonObject()
                .put("name", "ada")
                .put("limit", 3)
                .put("mode", "exact")
                .put("tags", new JsonArray().add("a").add("b")));
    assertEquals("ada", sent.arg(NAME));
    assertEquals(3, sent.arg(LIMIT));
    assertEquals("exact", sent.arg(MODE));
    assertEquals(List.of("a", "b"), sent.arg(TAGS));

    ToolContext omitted = called(new JsonObject().put("name", "ada"));
    JsonObject properties = SPEC.inputSchema().getJsonObject("properties");
    assertEquals(properties.getJsonObject("limit").getValue("default"), omitted.arg(LIMIT));
    assertEquals(properties.getJsonObject("mode").getValue("default"), omitted.arg(MODE));
    assertNull(omitted.arg(TAGS));
  }

  @Test
  void anArgumentTheToolDoesNotDeclareCannotBeRead() {
    ToolContext ctx = called(new JsonObject().put("name", "ada").put("verbose", true));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ctx.arg(UNDECLARED));
    assertTrue(e.getMessage().contains("verbose"), e.getMessage());
  }

  @Test
  void aBadValueIsRefusedWithTheValidatorsWordsForTheRuleItBreaks() {
    assertNull(refusal(new JsonObject().put("name", "ada")));
    assertEquals(
        "invalid arguments for arg_demo: field 'limit': 51 is greater than 50 (rule: maximum)",
        refusal(new JsonObject().put("name", "ada").put("limit", 51)));
    assertEquals(
        "invalid arguments for arg_demo: field 'mode': Instance does not match any of"
            + " [\"fast\",\"exact\"] (rule: enum)",
        refusal(new JsonObject().put("name", "ada").put("mode", "slow")));
    String missing = refusal(new JsonObject().put("limit", 2));
    assertTrue(missing.contains("required property \"name\" (rule: required)"), missing);
    assertEquals(
        "invalid arguments for arg_demo: field 'verbose': Property \"verbose\" does not match"
            + " additional properties schema (rule: additionalProperties)",
        refusal(new JsonObject().put("name", "ada").put("verbose", true)));
  }

  @Test
  void aListOfObjectsPublishesItsFieldsInOrderAndRefusesOthers() {
    Arg<JsonArray> people =
        Arg.objects("people", "Who", NAME, LIMIT.describedAs("Their share"), MODE).required();
    ToolSpec spec = ToolSpec.builder("arg_people").description("d").input(people).build();
    JsonObject items =
        spec.inputSchema()
            .getJsonObject("properties")
            .getJsonObject("people")
            .getJsonObject("items");
    assertEquals(
        List.of("name", "limit", "mode"),
        List.copyOf(items.getJsonObject("properties").fieldNames()));
    assertEquals(new JsonArray().add("name"), items.getJsonArray("required"));
    assertEquals(false, items.getValue("additionalProperties"));

    JsonArray sent = new JsonArray().add(new JsonObject().put("name", "ada").put("age", 36));
    assertEquals(
        "invalid arguments for arg_people: field 'people.0.age': Property \"age\" does not match"
            + " additional properties schema (rule: additionalProperties)",
        new Refusals(spec).of(new JsonObject().put("people", sent)));
  }

  @Test
  void anArgumentDeclaredTwiceIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ToolSpec.builder("arg_twice").description("d").input(NAME, NAME.describedAs("x")));
  }
}
