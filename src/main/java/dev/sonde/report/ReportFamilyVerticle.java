package dev.sonde.report;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** Analysis reports of tag tables, written as self-contained HTML with the agent's analysis. */
public final class ReportFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "report";

  public ReportFamilyVerticle(FamilyServices services, AnalysisReports reports) {
    super(
        FAMILY,
        services,
        List.of(new SaveHtmlReportTool(reports, services.files(), services.configuredZone())));
  }
}
