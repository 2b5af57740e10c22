package dev.sonde.query;

import dev.sonde.config.SondeConfig.ConnectionConfig;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import dev.sonde.tools.Tool;
import java.util.ArrayList;
import java.util.List;

/** Reading data: guarded, bounded, cancellable queries. */
public final class QueryFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "query";

  public QueryFamilyVerticle(FamilyServices services) {
    super(FAMILY, services, tools(services));
  }

  private static List<Tool> tools(FamilyServices services) {
    List<Tool> tools =
        new ArrayList<>(
            List.of(
                new ExecuteQueryTool(services.databases(), services.configuredZone()),
                new ExplainQueryTool(services.databases())));
    // execute_write is listed only where some connection allows writes
    if (services.config().databases().connections().values().stream()
        .anyMatch(ConnectionConfig::write)) {
      tools.add(new ExecuteWriteTool(services.databases()));
    }
    return tools;
  }
}
