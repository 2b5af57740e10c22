package dev.sonde.tools;

import io.vertx.core.json.JsonObject;
import java.time.DateTimeException;
import java.time.ZoneId;

/** The optional {@code timezone} argument: the user's zone, else {@code timeseries.timezone}. */
public final class TimezoneArg {
  private TimezoneArg() {}

  /** {@code schema} with the optional {@code timezone} property added. */
  public static JsonObject addTo(JsonObject schema) {
    return Schemas.prop(
        schema,
        "timezone",
        Schemas.string(
            "IANA zone times are shown in, e.g. Asia/Seoul; default the server's configured zone"),
        false);
  }

  /** The zone the call names, or the configured default; an unknown name is a caller error. */
  public static ZoneId zone(FamilyServices services, ToolContext ctx) {
    String name = ctx.args().getString("timezone");
    if (name == null || name.isBlank()) {
      return ZoneId.of(services.config().timeseries().timezone());
    }
    try {
      return ZoneId.of(name.trim());
    } catch (DateTimeException e) {
      throw new ToolException(
          "unknown timezone '" + name + "'; use an IANA name such as Europe/Paris or UTC");
    }
  }
}
