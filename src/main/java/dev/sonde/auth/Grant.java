package dev.sonde.auth;

import java.util.List;
import java.util.Set;

/**
 * The tools a principal may call, from its toolsets: either a list of tools, or every tool but
 * {@code excluded} (the {@code general} and {@code all} toolsets). Prompts and resources follow the
 * tools they stand for.
 */
public record Grant(List<String> toolsets, boolean open, Set<String> listed, Set<String> excluded) {
  public Grant {
    toolsets = List.copyOf(toolsets);
    listed = Set.copyOf(listed);
    excluded = Set.copyOf(excluded);
  }

  /** Every tool: the local person at a loopback or stdio Sonde. */
  public static Grant everything() {
    return new Grant(List.of(Toolsets.ALL), true, Set.of(), Set.of());
  }

  public boolean allows(String tool) {
    return open ? !excluded.contains(tool) : listed.contains(tool);
  }

  /** Whether this grant holds every tool there is. */
  public boolean isEverything() {
    return open && excluded.isEmpty();
  }

  /** Why a call to {@code tool} is refused, said for the caller. */
  public String refusal(String tool) {
    return "tool "
        + tool
        + " is not in your toolsets ("
        + String.join(", ", toolsets)
        + "); tools/list shows the tools you may call";
  }
}
