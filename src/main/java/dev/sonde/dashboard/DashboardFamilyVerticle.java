package dev.sonde.dashboard;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import dev.sonde.tools.Tool;
import dev.sonde.tools.Viewer;
import dev.sonde.tools.WorkspaceFiles;
import java.util.List;
import java.util.stream.Stream;

/**
 * Dashboards of saved and inline charts in the account's workspace, their browser links, and the
 * viewer's operations behind them.
 */
public final class DashboardFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = Viewer.FAMILY;

  public DashboardFamilyVerticle(FamilyServices services, Dashboards dashboards) {
    super(FAMILY, services, tools(services, dashboards));
  }

  private static List<Tool> tools(FamilyServices services, Dashboards dashboards) {
    WorkspaceFiles files = services.files();
    String zone = services.configuredZone();
    return Stream.concat(
            Stream.of(
                new CreateDashboardTool(dashboards, files, zone),
                new AddChartToDashboardTool(dashboards, files, zone),
                new UpdateChartInDashboardTool(dashboards, files),
                new RemoveChartFromDashboardTool(dashboards, files),
                new GetDashboardTool(dashboards, files),
                new DeleteDashboardTool(dashboards, files),
                new UpdateDashboardTimeRangeTool(dashboards, files),
                new PreviewDashboardTool(dashboards, files, zone)),
            ViewerOperations.all(services.workspaces(), dashboards).stream())
        .toList();
  }
}
