package dev.sonde.chatbi;

import dev.sonde.chatbi.Ontology.Join;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * The AST half of chat_bi's validation (JSqlParser): every table the SQL reads is an entity of the
 * domain, and every join condition pairs columns the domain joins (its relations included), in
 * either direction. What the guard lets through as a read can still wander off the domain; this
 * keeps it on it.
 */
final class SqlCheck {
  private SqlCheck() {}

  /** The problems found, empty when the SQL keeps to the domain. */
  static List<String> problems(String sql, Ontology ontology) {
    Statement statement;
    try {
      statement = CCJSqlParserUtil.parse(sql);
    } catch (JSQLParserException e) {
      return List.of("the SQL does not parse: " + firstLine(e));
    }
    JoinFinder finder = new JoinFinder();
    Set<String> tables = finder.getTables(statement);
    List<String> out = new ArrayList<>();
    for (String table : tables) {
      String bare = table.substring(table.lastIndexOf('.') + 1).replace("\"", "");
      if (ontology.entity(bare) == null) {
        out.add("table " + bare + " is not in domain " + ontology.domain());
      }
    }
    Set<String> known = new LinkedHashSet<>();
    List<Join> joins = new ArrayList<>(ontology.joins());
    joins.addAll(ontology.relationJoins());
    for (Join j : joins) {
      for (int i = 0; i < j.from().size(); i++) {
        known.add(pair(j.from().get(i), j.to().get(i)));
        known.add(pair(j.to().get(i), j.from().get(i)));
      }
    }
    for (String[] condition : finder.conditions) {
      if (condition.length == 1) {
        out.add(condition[0]);
      } else if (!known.contains(pair(condition[0], condition[1]))) {
        out.add("join " + condition[0] + " = " + condition[1] + " is not a join of the domain");
      }
    }
    return out;
  }

  private static String pair(String a, String b) {
    return (a + "=" + b).toLowerCase(Locale.ROOT);
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int newline = m.indexOf('\n');
    return newline < 0 ? m : m.substring(0, newline);
  }

  /** Collects, from every SELECT however nested, each join's column pairs with aliases resolved. */
  private static final class JoinFinder extends TablesNamesFinder<Void> {
    final List<String[]> conditions = new ArrayList<>();

    @Override
    public <S> Void visit(PlainSelect select, S context) {
      Map<String, String> aliases = new HashMap<>();
      name(select.getFromItem(), aliases);
      if (select.getJoins() != null) {
        select.getJoins().forEach(j -> name(j.getFromItem(), aliases));
        for (net.sf.jsqlparser.statement.select.Join join : select.getJoins()) {
          if (join.getOnExpressions() == null || join.getOnExpressions().isEmpty()) {
            conditions.add(
                new String[] {"join of " + join.getFromItem() + " has no ON condition to check"});
            continue;
          }
          join.getOnExpressions().forEach(e -> equalities(e, aliases));
        }
      }
      return super.visit(select, context);
    }

    private static void name(FromItem item, Map<String, String> aliases) {
      if (item instanceof Table t) {
        String name = t.getName().replace("\"", "");
        aliases.put(name.toLowerCase(Locale.ROOT), name);
        if (t.getAlias() != null) {
          aliases.put(t.getAlias().getName().toLowerCase(Locale.ROOT), name);
        }
      }
    }

    private void equalities(Expression e, Map<String, String> aliases) {
      if (e instanceof AndExpression and) {
        equalities(and.getLeftExpression(), aliases);
        equalities(and.getRightExpression(), aliases);
      } else if (e instanceof EqualsTo eq
          && eq.getLeftExpression() instanceof Column left
          && eq.getRightExpression() instanceof Column right) {
        conditions.add(new String[] {qualified(left, aliases), qualified(right, aliases)});
      } else if (e != null) {
        conditions.add(new String[] {"join condition " + e + " is not an equality of two columns"});
      }
    }

    private static String qualified(Column c, Map<String, String> aliases) {
      String table = c.getTable() == null ? "" : c.getTable().getName().replace("\"", "");
      String resolved = aliases.getOrDefault(table.toLowerCase(Locale.ROOT), table);
      return resolved + "." + c.getColumnName().replace("\"", "");
    }
  }
}
