package dev.sonde.tools;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.SharedSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every string a tool takes is bounded in its schema, and a value over the bound is refused before
 * any tool runs: quickly, briefly, naming the argument and the limit, without the value.
 */
class InputBoundsTest {
  static final String MEGABYTE = "d".repeat(1 << 20);

  static HttpMcpClient client;
  static ToolCalls tools;

  @BeforeAll
  static void connect() {
    client = new HttpMcpClient(SharedSonde.get().port());
    client.initialize("2025-11-25");
    tools = new ToolCalls(client);
  }

  @AfterAll
  static void close() {
    client.close();
  }

  @Test
  void everyStringPropertyOfEveryListedToolHasAMaxLength() {
    List<String> unbounded = new ArrayList<>();
    for (JsonObject tool : listedTools()) {
      collectUnbounded(tool.getString("name"), tool.getJsonObject("inputSchema"), unbounded);
    }
    assertTrue(unbounded.isEmpty(), "strings without maxLength: " + unbounded);
  }

  @Test
  void aMegabyteDocumentIdentifierIsRefusedBrieflyWithoutBeingEchoed() {
    for (String tool :
        List.of("get_full_document_content", "get_document_sections", "extract_code_blocks")) {
      long start = System.nanoTime();
      String refusal = tools.refused(tool, new JsonObject().put("file_identifier", MEGABYTE));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(refusal.length() < 1024, tool + " answered " + refusal.length() + " characters");
      assertFalse(refusal.contains("d".repeat(100)), tool + " echoed the identifier");
      assertTrue(refusal.contains("file_identifier"), refusal);
      assertTrue(refusal.contains(String.valueOf(Schemas.NAME_LENGTH)), refusal);
      // generous: the schema check is milliseconds, a lookup of the identifier was seconds
      assertTrue(millis < 2000, tool + " took " + millis + " ms");
    }
  }

  @Test
  void anOverLongQuestionToChatBiIsRefusedWithItsLimit() {
    String refusal =
        tools.refused(
            "chat_bi", new JsonObject().put("nlq", "which product sells best? ".repeat(400)));
    assertTrue(refusal.contains("nlq"), refusal);
    assertTrue(refusal.contains(String.valueOf(Schemas.QUESTION_LENGTH)), refusal);
    assertFalse(refusal.contains("sells best? which"), "the question came back: " + refusal);
  }

  @Test
  void anOverLongPropertyNameIsNotEchoedWhole() {
    String refusal = tools.refused("get_version", new JsonObject().put("x".repeat(40_000), true));
    assertTrue(refusal.length() < 1024, refusal.length() + " characters");
  }

  private static List<JsonObject> listedTools() {
    List<JsonObject> out = new ArrayList<>();
    String cursor = null;
    long id = 1;
    do {
      JsonObject params = cursor == null ? null : new JsonObject().put("cursor", cursor);
      JsonObject page = client.request(id++, "tools/list", params).getJsonObject("result");
      page.getJsonArray("tools").forEach(t -> out.add((JsonObject) t));
      cursor = page.getString("nextCursor");
    } while (cursor != null);
    assertTrue(out.size() > 30, "tools/list had only " + out.size() + " tools");
    return out;
  }

  /** Walks properties, array items and nested objects; an enum bounds a string by itself. */
  private static void collectUnbounded(String where, Object schema, List<String> out) {
    if (schema instanceof JsonArray array) {
      array.forEach(part -> collectUnbounded(where, part, out));
      return;
    }
    if (!(schema instanceof JsonObject object)) {
      return;
    }
    Object type = object.getValue("type");
    boolean string =
        "string".equals(type) || type instanceof JsonArray types && types.contains("string");
    if (string
        && !(object.getValue("maxLength") instanceof Integer)
        && !object.containsKey("enum")
        && !object.containsKey("const")) {
      out.add(where);
    }
    JsonObject properties = object.getJsonObject("properties");
    if (properties != null) {
      properties.forEach(p -> collectUnbounded(where + "." + p.getKey(), p.getValue(), out));
    }
    for (String key : List.of("items", "additionalProperties", "anyOf", "oneOf", "allOf")) {
      collectUnbounded(where + "[" + key + "]", object.getValue(key), out);
    }
  }
}
