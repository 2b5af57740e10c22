package dev.sonde.db.guard;

import java.util.Locale;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Walks a parsed query everywhere (subqueries, CTEs, set operations, expressions) and refuses what
 * writes or escapes: nested DML, SELECT ... INTO, row locks, denylisted functions.
 */
final class ReadOnlyWalker extends TablesNamesFinder<Void> {
  private final FunctionJudge functions;
  private final TablesNamed named;

  ReadOnlyWalker(FunctionJudge functions, TablesNamed named) {
    this.functions = functions;
    this.named = named;
    init(true);
  }

  @Override
  public <S> Void visit(Table table, S context) {
    named.table(
        table.getUnquotedDatabaseName(), table.getUnquotedSchemaName(), table.getUnquotedName());
    return super.visit(table, context);
  }

  /** A column's qualifier is an alias or a table already named in FROM: it names nothing new. */
  @Override
  public <S> Void visit(Column column, S context) {
    return null;
  }

  @Override
  public <S> Void visit(PlainSelect select, S context) {
    if (select.getIntoTables() != null
        || select.getIntoTempTable() != null
        || select.getMySqlSelectIntoClause() != null) {
      throw new GuardRefusal("SELECT ... INTO creates or fills a table; a query may only read");
    }
    if (select.getForMode() != null || select.getForUpdateTable() != null) {
      throw new GuardRefusal("FOR UPDATE/SHARE takes row locks; a query may only read");
    }
    return super.visit(select, context);
  }

  @Override
  public <S> Void visit(WithItem<?> item, S context) {
    String kind =
        item.getParenthesedStatement() == null
            ? ""
            : item.getParenthesedStatement().getClass().getSimpleName();
    if (kind.contains("Insert")
        || kind.contains("Update")
        || kind.contains("Delete")
        || kind.contains("Merge")) {
      throw new GuardRefusal(
          "a WITH clause that changes data is not a read; use execute_write for changes");
    }
    if (item.getAlias() != null) {
      named.withName(item.getAlias().getName().replace("\"", "").replace("`", ""));
    }
    return super.visit(item, context);
  }

  @Override
  public <S> Void visit(Insert insert, S context) {
    throw new GuardRefusal("INSERT inside a query changes data; use execute_write for changes");
  }

  @Override
  public <S> Void visit(Update update, S context) {
    throw new GuardRefusal("UPDATE inside a query changes data; use execute_write for changes");
  }

  @Override
  public <S> Void visit(Delete delete, S context) {
    throw new GuardRefusal("DELETE inside a query changes data; use execute_write for changes");
  }

  @Override
  public <S> Void visit(Merge merge, S context) {
    throw new GuardRefusal("MERGE inside a query changes data; use execute_write for changes");
  }

  @Override
  public <S> Void visit(Function function, S context) {
    refuseIfDenied(function.getName());
    return super.visit(function, context);
  }

  @Override
  public <S> Void visit(TableFunction function, S context) {
    if (function.getFunction() != null) {
      refuseIfDenied(function.getFunction().getName());
      named.tableFunction(function.getFunction().getName().replace("\"", "").replace("`", ""));
    }
    return super.visit(function, context);
  }

  private void refuseIfDenied(String qualifiedName) {
    if (qualifiedName == null) {
      return;
    }
    String name =
        qualifiedName
            .substring(qualifiedName.lastIndexOf('.') + 1)
            .replace("\"", "")
            .replace("`", "")
            .toLowerCase(Locale.ROOT);
    SqlGuard.refuseIfDenied(name, functions);
  }
}
