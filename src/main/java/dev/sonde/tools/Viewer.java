package dev.sonde.tools;

/**
 * The dashboard viewer's operations, asked of the dashboard family over the event bus like tool
 * calls (same deadline, pool and cancel) but never listed to MCP clients. Arguments: {@code path},
 * and {@code id} for a panel; {@code start}, {@code end} and {@code tz} override the saved period
 * and zone.
 */
public final class Viewer {
  public static final String FAMILY = "dashboard";
  public static final String LIST = "viewer_list";
  public static final String DASHBOARD = "viewer_dashboard";
  public static final String PANEL_DATA = "viewer_panel_data";
  public static final String CHART_DATA = "viewer_chart_data";

  private Viewer() {}
}
