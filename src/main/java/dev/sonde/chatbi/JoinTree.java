package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Join;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Tables connected by the domain's joins: the first table, then each other one by its shortest path
 * (either direction) to the tables already in, of at most {@code maxHops} joins; a table further
 * away is dropped and said. Retrieval and the SQL writer connect tables the same way.
 */
record JoinTree(List<String> tables, List<Join> joins, List<String> dropped) {
  static JoinTree connect(Ontology ontology, List<String> wanted, int maxHops) {
    List<String> in = new ArrayList<>();
    List<Join> tree = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (String table : wanted) {
      if (in.stream().anyMatch(t -> t.equalsIgnoreCase(table))) {
        continue;
      }
      if (in.isEmpty()) {
        in.add(table);
        continue;
      }
      List<Join> path = shortestPath(ontology, table, in, maxHops);
      if (path == null) {
        dropped.add("table " + table + " (no join path of at most " + maxHops + " to " + in + ")");
        continue;
      }
      for (Join j : path) {
        if (!tree.contains(j)) {
          tree.add(j);
        }
        for (String t : List.of(j.fromTable(), j.toTable())) {
          if (in.stream().noneMatch(x -> x.equalsIgnoreCase(t))) {
            in.add(t);
          }
        }
      }
    }
    return new JoinTree(in, tree, dropped);
  }

  /**
   * Breadth-first over the join graph, either direction, from {@code from} to any of {@code to}.
   */
  private static List<Join> shortestPath(
      Ontology ontology, String from, List<String> to, int maxHops) {
    record Step(String table, List<Join> path) {}
    Deque<Step> queue = new ArrayDeque<>(List.of(new Step(from, List.of())));
    Set<String> seen = new LinkedHashSet<>(List.of(from.toLowerCase(Locale.ROOT)));
    while (!queue.isEmpty()) {
      Step step = queue.poll();
      if (to.stream().anyMatch(t -> t.equalsIgnoreCase(step.table()))) {
        return step.path();
      }
      if (step.path().size() == maxHops) {
        continue;
      }
      for (Join j : ontology.joins()) {
        String next =
            j.fromTable().equalsIgnoreCase(step.table())
                ? j.toTable()
                : j.toTable().equalsIgnoreCase(step.table()) ? j.fromTable() : null;
        if (next != null && seen.add(next.toLowerCase(Locale.ROOT))) {
          List<Join> path = new ArrayList<>(step.path());
          path.add(j);
          queue.add(new Step(next, path));
        }
      }
    }
    return null;
  }

  /** {@code a.x = b.y AND a.z = b.w}. */
  static String text(Join j) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < j.from().size(); i++) {
      parts.add(j.from().get(i) + " = " + j.to().get(i));
    }
    return String.join(" AND ", parts);
  }
}
