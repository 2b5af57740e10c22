package dev.sonde.tools;

import dev.sonde.db.Database;
import io.vertx.core.json.JsonObject;

/**
 * The optional {@code connection} argument every database tool takes; a tool reads it as {@code
 * databases.get(ctx.arg(CONNECTION))}, which names the known connections when it is unknown.
 */
public final class ConnectionArg {
  public static final Arg<String> CONNECTION =
      Arg.string("connection", "Named connection to use; omit for the default connection");

  private ConnectionArg() {}

  /** {@code schema} with {@link #CONNECTION} added, for tools not declared with Args yet. */
  public static JsonObject addTo(JsonObject schema) {
    return CONNECTION.addTo(schema);
  }

  /** The database the call names, or the default one, for tools not declared with Args yet. */
  public static Database database(FamilyServices services, ToolContext ctx) {
    return services.databases().get(ctx.args().getString(CONNECTION.name()));
  }
}
