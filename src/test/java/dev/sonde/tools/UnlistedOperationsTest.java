package dev.sonde.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.DatabaseSonde;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operations families ask of each other, and the viewer's, are not tools: MCP clients neither
 * see nor call them, so they can never step around a tool's argument checks.
 */
class UnlistedOperationsTest {
  private static final List<String> OPERATIONS =
      ToolsListGoldenTest.defaultFamilies().stream()
          .flatMap(family -> family.operationNames().stream())
          .toList();

  @Test
  void theFamiliesHaveOperations() {
    assertTrue(
        OPERATIONS.containsAll(List.of(FamilyAsks.CHART_DATA, Viewer.PANEL_DATA)),
        OPERATIONS.toString());
  }

  @Test
  void toolsListShowsNoOperation() {
    String listed = dev.sonde.mcp.McpContractTest.allTools(DatabaseSonde.client()).encode();
    for (String operation : OPERATIONS) {
      assertFalse(listed.contains('"' + operation + '"'), operation + " is listed");
    }
  }

  @Test
  void callingAnOperationByNameIsAnUnknownTool() {
    long id = 900_100;
    for (String operation : OPERATIONS) {
      JsonObject answer =
          DatabaseSonde.client()
              .request(
                  id++,
                  "tools/call",
                  new JsonObject()
                      .put("name", operation)
                      .put(
                          "arguments",
                          new JsonObject()
                              .put("spec", new JsonObject().put("table", "EXAMPLE"))
                              .put("table", "EXAMPLE")));
      JsonObject error = answer.getJsonObject("error");
      assertNotNull(error, operation + " answered " + answer.encode());
      assertEquals(-32602, error.getInteger("code"), answer.encode());
      assertTrue(error.getString("message").contains("unknown tool"), answer.encode());
    }
  }
}
