package dev.sonde.tools.dashboard;

import dev.sonde.dashboard.Dashboards;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** Dashboards of saved and inline charts in the account's workspace, and their browser links. */
public final class DashboardFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "dashboard";

  public DashboardFamilyVerticle(FamilyServices services, Dashboards dashboards) {
    super(
        FAMILY,
        services,
        List.of(
            new CreateDashboardTool(services, dashboards),
            new AddChartToDashboardTool(services, dashboards),
            new UpdateChartInDashboardTool(services, dashboards),
            new RemoveChartFromDashboardTool(services, dashboards),
            new GetDashboardTool(services, dashboards),
            new DeleteDashboardTool(services, dashboards),
            new UpdateDashboardTimeRangeTool(services, dashboards),
            new PreviewDashboardTool(services, dashboards)));
  }
}
