package dev.sonde.dashboard;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import dev.sonde.tools.Viewer;
import java.util.stream.Stream;

/**
 * Dashboards of saved and inline charts in the account's workspace, their browser links, and the
 * viewer's operations behind them.
 */
public final class DashboardFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = Viewer.FAMILY;

  public DashboardFamilyVerticle(FamilyServices services, Dashboards dashboards) {
    super(
        FAMILY,
        services,
        Stream.concat(
                Stream.of(
                    new CreateDashboardTool(services, dashboards),
                    new AddChartToDashboardTool(services, dashboards),
                    new UpdateChartInDashboardTool(services, dashboards),
                    new RemoveChartFromDashboardTool(services, dashboards),
                    new GetDashboardTool(services, dashboards),
                    new DeleteDashboardTool(services, dashboards),
                    new UpdateDashboardTimeRangeTool(services, dashboards),
                    new PreviewDashboardTool(services, dashboards)),
                ViewerOperations.all(services, dashboards).stream())
            .toList());
  }
}
