package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Join;
import dev.sonde.chatbi.QueryPlan.Output;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@link QueryPlan} as one SELECT in a connection's dialect: the plan's tables joined along the
 * domain's join paths from the first (the fact table), a table that only filters and would repeat
 * rows as a semi-join, filters, grouping by the dimensions and their keys, a HAVING against the
 * groups' average as a subquery, the order and a LIMIT.
 */
final class SqlWriter {
  /** Tables further apart than this are not joined: the question is about something else. */
  static final int MAX_HOPS = 3;

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  private static final Pattern QUALIFIED = Pattern.compile("\\b[a-z_]\\w*\\.[a-z_]");

  private final Ontology ontology;
  private final String dialect;

  SqlWriter(Ontology ontology, String dialect) {
    this.ontology = ontology;
    this.dialect = dialect;
  }

  String write(QueryPlan plan) {
    // a list without a measure shows each row once, however many join rows it has
    StringBuilder sql =
        new StringBuilder(plan.measures().isEmpty() ? "SELECT DISTINCT " : "SELECT ");
    List<String> select = new ArrayList<>();
    List<String> aliases = new ArrayList<>();
    plan.dimensions().forEach(d -> select.add(d.expression() + " AS " + d.alias()));
    plan.measures().forEach(m -> select.add(m.expression() + " AS " + m.alias()));
    plan.dimensions().forEach(d -> aliases.add(d.alias()));
    plan.measures().forEach(m -> aliases.add(m.alias()));
    boolean placed = plan.ties() && plan.order() != null && plan.limit() != null;
    if (placed) {
      String ranked =
          plan.measures().stream()
              .filter(m -> m.alias().equals(plan.order().alias()))
              .findFirst()
              .orElseThrow()
              .expression();
      select.add(
          "RANK() OVER (ORDER BY "
              + ranked
              + (plan.order().descending() ? " DESC" : " ASC")
              + ") AS place");
    }
    sql.append(String.join(", ", select));
    body(plan, sql);
    if (plan.having() != null) {
      QueryPlan.Having h = plan.having();
      sql.append("\nHAVING ").append(h.measure()).append(' ').append(h.operator()).append(' ');
      if (h.threshold() != null) {
        sql.append(number(h.threshold()));
      } else {
        StringBuilder inner = new StringBuilder("SELECT " + h.measure() + " AS v");
        body(plan, inner);
        sql.append("(SELECT AVG(v) FROM (").append(inner).append(") AS per_group)");
      }
    }
    if (placed) {
      // every row tied within the first places, in a stable order
      return "SELECT "
          + String.join(", ", aliases)
          + "\nFROM ("
          + sql
          + ") AS ranked\nWHERE place <= "
          + plan.limit()
          + "\nORDER BY place, "
          + String.join(", ", aliases);
    }
    if (plan.order() != null) {
      sql.append("\nORDER BY ")
          .append(plan.order().alias())
          .append(plan.order().descending() ? " DESC" : " ASC");
      // ties in a stable order, so the same question gives the same rows
      plan.dimensions().forEach(d -> sql.append(", ").append(d.alias()));
    }
    if (plan.limit() != null) {
      sql.append("\nLIMIT ").append(plan.limit());
    }
    return sql.toString();
  }

  /** FROM, the joins, WHERE and GROUP BY: shared by the query and its per-group subquery. */
  private void body(QueryPlan plan, StringBuilder sql) {
    Ontology read = plan.relation() == null ? ontology : ontology.through(plan.relation());
    JoinTree tree = JoinTree.connect(read, plan.tables(), MAX_HOPS);
    if (!tree.dropped().isEmpty()) {
      throw new NotUnderstood("cannot join " + String.join(", ", tree.dropped()));
    }
    String root = tree.tables().get(0);
    sql.append("\nFROM ").append(root);
    List<String> filters = new ArrayList<>(plan.filters());
    Set<String> joined = new LinkedHashSet<>(List.of(root.toLowerCase(Locale.ROOT)));
    List<Join> pending = new ArrayList<>(tree.joins());
    while (!pending.isEmpty()) {
      Join next = null;
      String table = null;
      for (Join j : pending) {
        boolean fromIn = joined.contains(j.fromTable().toLowerCase(Locale.ROOT));
        boolean toIn = joined.contains(j.toTable().toLowerCase(Locale.ROOT));
        if (fromIn != toIn) {
          next = j;
          table = fromIn ? j.toTable() : j.fromTable();
          break;
        }
      }
      if (next == null) {
        break;
      }
      pending.remove(next);
      joined.add(table.toLowerCase(Locale.ROOT));
      String semi = semiJoin(plan, read, tree, next, table, filters);
      if (semi != null) {
        filters.add(semi);
      } else {
        sql.append("\nJOIN ").append(table).append(" ON ").append(JoinTree.text(next));
      }
    }
    if (!filters.isEmpty()) {
      sql.append("\nWHERE ").append(String.join("\n  AND ", filters));
    }
    if (plan.grouped()) {
      List<String> group = new ArrayList<>(plan.keys());
      for (Output d : plan.dimensions()) {
        if (!group.contains(d.expression())) {
          group.add(d.expression());
        }
      }
      sql.append("\nGROUP BY ").append(String.join(", ", group));
    }
  }

  /**
   * A table that only filters and would repeat the rows it joins (a river's row per state, for the
   * state) is a semi-join instead, so sums are not counted twice: {@code state.state_name IN
   * (SELECT river.traverse FROM river WHERE river.river_name = 'mississippi')}. Its filters move
   * inside; null when the table must be joined.
   */
  private static String semiJoin(
      QueryPlan plan, Ontology read, JoinTree tree, Join join, String table, List<String> filters) {
    String prefix = table.toLowerCase(Locale.ROOT) + ".";
    boolean leaf = tree.joins().stream().filter(j -> touches(j, table)).count() == 1;
    String parent = join.fromTable().equalsIgnoreCase(table) ? join.toTable() : join.fromTable();
    if (!leaf
        || join.from().size() != 1
        || read.cardinality(parent, table) != Ontology.Cardinality.ONE_TO_MANY
        || shows(plan, prefix)) {
      return null;
    }
    List<String> own = new ArrayList<>();
    for (String f : filters) {
      String lower = f.toLowerCase(Locale.ROOT);
      if (lower.contains(prefix)) {
        if (QUALIFIED.matcher(lower.replace(prefix, "")).find()) {
          return null; // a filter across tables stays beside the join
        }
        own.add(f);
      }
    }
    filters.removeAll(own);
    boolean fromIsTable = join.fromTable().equalsIgnoreCase(table);
    String parentColumn = fromIsTable ? join.to().get(0) : join.from().get(0);
    String tableColumn = fromIsTable ? join.from().get(0) : join.to().get(0);
    return parentColumn
        + " IN (SELECT "
        + tableColumn
        + " FROM "
        + table
        + (own.isEmpty() ? "" : " WHERE " + String.join(" AND ", own))
        + ")";
  }

  private static boolean touches(Join j, String table) {
    return j.fromTable().equalsIgnoreCase(table) || j.toTable().equalsIgnoreCase(table);
  }

  /** The plan shows, groups by or measures a column of the table {@code prefix} names. */
  private static boolean shows(QueryPlan plan, String prefix) {
    List<String> expressions = new ArrayList<>(plan.keys());
    plan.dimensions().forEach(d -> expressions.add(d.expression()));
    plan.measures().forEach(m -> expressions.add(m.expression()));
    if (plan.having() != null) {
      expressions.add(plan.having().measure());
    }
    return expressions.stream().anyMatch(e -> e.toLowerCase(Locale.ROOT).contains(prefix));
  }

  /** A text literal, quotes doubled. */
  static String text(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  /** A timestamp literal: SQLite keeps times as ISO text, the others have a TIMESTAMP type. */
  String timestamp(LocalDateTime t) {
    String text = "'" + TIMESTAMP.format(t) + "'";
    return dialect.equals("sqlite") ? text : "TIMESTAMP " + text;
  }

  /**
   * The period ({@code year}, {@code quarter}, {@code month}, {@code week}, {@code day}) of a time.
   */
  String period(String unit, String column) {
    return switch (dialect) {
      case "sqlite" ->
          switch (unit) {
            case "year" -> "strftime('%Y', " + column + ")";
            case "quarter" ->
                "strftime('%Y', "
                    + column
                    + ") || '-Q' || ((CAST(strftime('%m', "
                    + column
                    + ") AS INTEGER) + 2) / 3)";
            case "month" -> "strftime('%Y-%m', " + column + ")";
            case "week" -> "strftime('%Y-W%W', " + column + ")";
            default -> "date(" + column + ")";
          };
      case "mysql" ->
          switch (unit) {
            case "year" -> "YEAR(" + column + ")";
            case "quarter" -> "CONCAT(YEAR(" + column + "), '-Q', QUARTER(" + column + "))";
            case "month" -> "DATE_FORMAT(" + column + ", '%Y-%m')";
            case "week" -> "DATE_FORMAT(" + column + ", '%x-W%v')";
            default -> "DATE(" + column + ")";
          };
      default ->
          unit.equals("year")
              ? "EXTRACT(YEAR FROM " + column + ")"
              : "CAST(DATE_TRUNC('" + unit + "', " + column + ") AS DATE)";
    };
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
