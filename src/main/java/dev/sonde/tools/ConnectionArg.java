package dev.sonde.tools;

import dev.sonde.db.Database;
import io.vertx.core.json.JsonObject;

/**
 * The optional {@code connection} argument every database tool takes, and the database it names.
 */
public final class ConnectionArg {
  private ConnectionArg() {}

  /** {@code schema} with the optional {@code connection} property added. */
  public static JsonObject addTo(JsonObject schema) {
    return Schemas.prop(
        schema,
        "connection",
        Schemas.string("Named connection to use; omit for the default connection"),
        false);
  }

  /** The database the call names, or the default one; unknown names fail with the known ones. */
  public static Database database(FamilyServices services, ToolContext ctx) {
    return services.databases().get(ctx.args().getString("connection"));
  }
}
