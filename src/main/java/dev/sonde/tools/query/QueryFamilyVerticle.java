package dev.sonde.tools.query;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** Reading data: guarded, bounded, cancellable queries. */
public final class QueryFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "query";

  public QueryFamilyVerticle(FamilyServices services) {
    super(FAMILY, services, List.of(new ExecuteQueryTool(services)));
  }
}
