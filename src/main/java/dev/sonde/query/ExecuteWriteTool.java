package dev.sonde.query;

import static dev.sonde.tools.ConnectionArg.CONNECTION;

import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ClientInput;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * One INSERT, UPDATE, DELETE or MERGE on a connection that allows writes; listed only when one
 * does.
 */
final class ExecuteWriteTool implements Tool {
  private static final Arg<String> SQL =
      ExecuteQueryTool.SQL.describedAs("One INSERT, UPDATE, DELETE or MERGE");
  private static final Arg<String> WRITABLE_CONNECTION =
      CONNECTION.describedAs("Named connection that allows writes; omit for the default");

  private static final String CONFIRM = "confirm";
  private static final String ASKED = "asked";

  private final DatabaseRegistry databases;
  private final ToolSpec spec =
      ToolSpec.builder("execute_write")
          .title("Change data")
          .description(
              "Runs one INSERT, UPDATE, DELETE or MERGE in its own transaction (committed on"
                  + " success, rolled back on failure) on a connection configured with write: true, and"
                  + " returns affected_rows. A client that can elicit is first asked to confirm, shown the"
                  + " statement and how many rows it changes. Schema changes, session commands and"
                  + " reads are refused.")
          .input(SQL, WRITABLE_CONNECTION)
          .output(Schemas.result("affected_rows", "integer"))
          .annotations(new ToolAnnotations(false, true, false, false))
          .build();

  ExecuteWriteTool(DatabaseRegistry databases) {
    this.databases = databases;
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    Database db = databases.get(ctx.arg(WRITABLE_CONNECTION), ctx.account());
    String sql = ctx.arg(SQL);
    if (!ctx.clientCan("elicitation")) {
      return db.write(sql, ctx.call()).map(ToolResult::structured);
    }
    boolean asked = ctx.requestState().getBoolean(ASKED, false);
    if (!asked) {
      return db.rehearseWrite(sql, ctx.call())
          .map(rehearsal -> askToConfirm(db.name(), sql, rehearsal.getInteger("affected_rows")));
    }
    JsonObject answer = ClientInput.accepted(ctx.inputResponses(), CONFIRM);
    if (answer != null && Boolean.TRUE.equals(answer.getValue(CONFIRM))) {
      return db.write(sql, ctx.call()).map(ToolResult::structured);
    }
    return Future.succeededFuture(
        ToolResult.error(
            "the change was not confirmed, so nothing was changed; call again to be asked again"));
  }

  /**
   * A client that can ask its user shows the statement and how many rows it changes (counted by
   * running it in a transaction that was rolled back; {@code rows} null where that is not safe)
   * before anything is committed.
   */
  private static ToolResult askToConfirm(String connection, String sql, Integer rows) {
    String count =
        rows == null
            ? " (this engine cannot count its rows without risking the change itself)"
            : " It changes "
                + rows
                + (rows == 1 ? " row" : " rows")
                + " now (counted in a transaction that was rolled back)";
    String message = "Run this on connection '" + connection + "'?" + count + ":\n\n" + sql;
    return ToolResult.inputRequired(
        new JsonObject()
            .put(CONFIRM, ClientInput.elicitation(message, ClientInput.form(CONFIRM, "boolean"))),
        new JsonObject().put(ASKED, true));
  }
}
