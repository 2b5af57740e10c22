package dev.sonde.auth;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Named sets of tools a principal may call: the question flows of the time-series toolset Sonde
 * follows (each hands the model a fixed list, and a tool outside it is not run even when called by
 * name), {@code general} (every tool but the delete tools), {@code all}, and any set the
 * configuration defines. Deleting is a person's act: the delete tools are in no shipped set but
 * {@code all}.
 */
public final class Toolsets {
  public static final String ALL = "all";
  public static final String GENERAL = "general";
  public static final String SYSTEM_INFORMATION = "system-information";
  public static final Set<String> DELETE_TOOLS =
      Set.of("remove_chart_from_dashboard", "delete_dashboard", "delete_file");

  private static final List<String> DATA_QUERY =
      List.of(
          "list_tables",
          "list_table_tags",
          "describe_table",
          "execute_query",
          "compile_tql_from_spec",
          "compile_chart_from_spec",
          "forecast_table");
  private static final List<String> BASIC_ANALYSIS =
      join(
          DATA_QUERY,
          List.of(
              "create_dashboard_with_charts",
              "preview_dashboard",
              "list_available_documents",
              "get_full_document_content"));

  /** The shipped sets, with Sonde's tool names. */
  public static final Map<String, List<String>> SHIPPED = shipped();

  private final Map<String, List<String>> defined;

  /**
   * The shipped sets and {@code custom} ones (name to tools). A custom set may not take a shipped
   * name, and its tools must be among {@code known}.
   */
  public Toolsets(Map<String, List<String>> custom, Set<String> known) {
    Map<String, List<String>> all = new LinkedHashMap<>(SHIPPED);
    custom.forEach(
        (name, tools) -> {
          if (name.equals(ALL) || name.equals(GENERAL) || SHIPPED.containsKey(name)) {
            throw new IllegalArgumentException(
                "auth.toolsets." + name + " takes the name of a shipped toolset; choose another");
          }
          List<String> unknown = tools.stream().filter(t -> !known.contains(t)).toList();
          if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                "auth.toolsets."
                    + name
                    + " names "
                    + unknown
                    + ", which no deployed family serves; tools/list shows the tools there are");
          }
          all.put(name, List.copyOf(tools));
        });
    this.defined = all;
  }

  /** Every toolset name, shipped ones first. */
  public List<String> names() {
    List<String> names = new ArrayList<>(List.of(ALL, GENERAL));
    names.addAll(defined.keySet());
    return names;
  }

  /** What {@code names} together allow; an unknown name is refused, naming the known ones. */
  public Grant grant(List<String> names) {
    if (names.isEmpty()) {
      throw new IllegalArgumentException("a principal needs at least one toolset: " + names());
    }
    boolean open = false;
    boolean everything = false;
    Set<String> listed = new LinkedHashSet<>();
    for (String name : names) {
      switch (name) {
        case ALL -> everything = true;
        case GENERAL -> open = true;
        default -> {
          List<String> tools = defined.get(name);
          if (tools == null) {
            throw new IllegalArgumentException(
                "unknown toolset '" + name + "'; the toolsets are " + names());
          }
          listed.addAll(tools);
        }
      }
    }
    if (everything) {
      return new Grant(names, true, Set.of(), Set.of());
    }
    if (open) {
      Set<String> excluded = new HashSet<>(DELETE_TOOLS);
      excluded.removeAll(listed);
      return new Grant(names, true, Set.of(), excluded);
    }
    return new Grant(names, false, listed, Set.of());
  }

  private static Map<String, List<String>> shipped() {
    Map<String, List<String>> sets = new LinkedHashMap<>();
    sets.put("data-query", DATA_QUERY);
    sets.put("basic-analysis", BASIC_ANALYSIS);
    sets.put("detailed-analysis", join(BASIC_ANALYSIS, List.of("create_folder")));
    sets.put("report", List.of("save_html_report"));
    sets.put(
        "document-search",
        List.of(
            "search_documents",
            "list_available_documents",
            "get_full_document_content",
            "get_document_sections",
            "extract_code_blocks",
            "list_tables",
            "describe_table",
            "list_table_tags",
            "compile_tql_from_spec",
            "compile_chart_from_spec"));
    sets.put(SYSTEM_INFORMATION, List.of("get_version", "debug_mcp_status", "execute_query"));
    return Collections.unmodifiableMap(sets);
  }

  private static List<String> join(List<String> first, List<String> second) {
    List<String> both = new ArrayList<>(first);
    second.stream().filter(t -> !both.contains(t)).forEach(both::add);
    return List.copyOf(both);
  }
}
