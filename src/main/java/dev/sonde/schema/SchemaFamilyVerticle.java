package dev.sonde.schema;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** What is in a database: tables, their columns, keys and indexes, and how big they are. */
public final class SchemaFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "schema";

  public SchemaFamilyVerticle(FamilyServices services) {
    super(
        FAMILY,
        services,
        List.of(
            new ListTablesTool(services.databases(), services.asks()),
            new AllTableNamesTool(services.databases()),
            new FilterTableNamesTool(services.databases()),
            new DescribeTableTool(services.databases(), services.asks(), services.configuredZone()),
            new SchemaDefinitionsTool(services.databases()),
            new ListIndexesTool(services.databases()),
            new TableRowCountsTool(services.databases()),
            new ListSequencesTool(services.databases()),
            new ListTableHierarchyTool(services.databases())));
  }
}
