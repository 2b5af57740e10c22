package dev.sonde.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.SharedSonde;
import dev.sonde.support.ToolCalls;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The workspace tools through MCP over HTTP, in the session's account (the default one). */
class FilesToolsTest {
  static ToolCalls tools;

  @BeforeAll
  static void connect() {
    tools = ToolCalls.over(SharedSonde.get().port());
  }

  @Test
  void foldersAreCreatedListedAndDeleted() {
    JsonObject created = tools.ok("create_folder", new JsonObject().put("folder_name", "t1/GOLD"));
    assertEquals("t1/GOLD", created.getString("folder"));
    assertTrue(created.getBoolean("created"));
    assertFalse(
        tools
            .ok("create_folder", new JsonObject().put("folder_name", "t1/GOLD/"))
            .getBoolean("created"),
        "asking again is fine and says it was there");
    JsonObject listed = tools.ok("list_files", new JsonObject().put("path", "t1"));
    JsonArray entries = listed.getJsonArray("entries");
    assertEquals(1, listed.getInteger("count"));
    assertEquals("folder", entries.getJsonObject(0).getString("type"));
    assertEquals("t1/GOLD", entries.getJsonObject(0).getString("path"));
    assertEquals(
        "t1/GOLD",
        tools.ok("delete_file", new JsonObject().put("filename", "t1/GOLD")).getString("deleted"));
    assertEquals(0, tools.ok("list_files", new JsonObject().put("path", "t1")).getInteger("count"));
  }

  @Test
  void pathsOutOfTheWorkspaceAreRefusedAsToolErrors() {
    assertTrue(
        tools
            .refused("create_folder", new JsonObject().put("folder_name", "../x"))
            .contains("'..'"));
    assertTrue(
        tools.refused("list_files", new JsonObject().put("path", "/etc")).contains("absolute"));
    assertTrue(
        tools
            .refused("delete_file", new JsonObject().put("filename", "nothing.json"))
            .contains("list_files"));
  }

  @Test
  void aNameThatHidesItsExtensionBehindABidiOverrideIsRefused() {
    String refused =
        tools.refused("create_folder", new JsonObject().put("folder_name", "invoice\u202Efdp.exe"));
    assertTrue(refused.contains("U+202E"), refused);
    assertFalse(refused.contains("\u202E"), "the message does not carry the override itself");
  }
}
