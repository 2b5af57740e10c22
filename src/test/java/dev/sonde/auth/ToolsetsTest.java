package dev.sonde.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How toolsets combine into what a principal may call; deleting stays a person's act. */
class ToolsetsTest {
  static final Set<String> KNOWN =
      Set.of("list_tables", "execute_query", "delete_file", "delete_dashboard", "create_folder");

  @Test
  void theShippedFlowsHoldTheirToolsAndNoDeleteTool() {
    Toolsets toolsets = new Toolsets(Map.of(), KNOWN);
    for (String name : Toolsets.SHIPPED.keySet()) {
      Grant grant = toolsets.grant(List.of(name));
      Toolsets.DELETE_TOOLS.forEach(t -> assertFalse(grant.allows(t), name + " allows " + t));
    }
    Grant dataQuery = toolsets.grant(List.of("data-query"));
    assertTrue(dataQuery.allows("execute_query"));
    assertFalse(dataQuery.allows("create_folder"));
    assertTrue(toolsets.grant(List.of("detailed-analysis")).allows("create_folder"));
    assertEquals(
        "tool create_folder is not in your toolsets (data-query); tools/list shows the tools you"
            + " may call",
        dataQuery.refusal("create_folder"));
  }

  @Test
  void generalIsEverythingButTheDeleteToolsUnlessOneIsGrantedOnPurpose() {
    Toolsets toolsets = new Toolsets(Map.of("cleanup", List.of("delete_file")), KNOWN);
    Grant general = toolsets.grant(List.of("general"));
    assertTrue(general.allows("create_folder"));
    assertTrue(general.allows("a_tool_added_later"));
    Toolsets.DELETE_TOOLS.forEach(t -> assertFalse(general.allows(t), t));
    Grant withCleanup = toolsets.grant(List.of("general", "cleanup"));
    assertTrue(withCleanup.allows("delete_file"));
    assertFalse(withCleanup.allows("delete_dashboard"));
    assertFalse(withCleanup.isEverything());
    Grant all = toolsets.grant(List.of("all"));
    assertTrue(all.isEverything());
    assertTrue(all.allows("delete_dashboard"));
  }

  @Test
  void aBadToolsetIsRefusedSayingWhatToChange() {
    Toolsets toolsets = new Toolsets(Map.of(), KNOWN);
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> toolsets.grant(List.of("nope")))
            .getMessage()
            .contains("unknown toolset 'nope'; the toolsets are [all, general, data-query"));
    assertThrows(IllegalArgumentException.class, () -> toolsets.grant(List.of()));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> new Toolsets(Map.of("mine", List.of("execute_querry")), KNOWN))
            .getMessage()
            .contains(
                "auth.toolsets.mine names [execute_querry], which no deployed family serves"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> new Toolsets(Map.of("general", List.of("delete_file")), KNOWN))
            .getMessage()
            .contains("shipped toolset"));
  }
}
