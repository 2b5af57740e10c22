package dev.sonde;

import dev.sonde.chatbi.ChatBi;
import dev.sonde.chatbi.ChatBiFamilyVerticle;
import dev.sonde.dashboard.DashboardFamilyVerticle;
import dev.sonde.dashboard.Dashboards;
import dev.sonde.docs.DocsFamilyVerticle;
import dev.sonde.docs.DocsLibrary;
import dev.sonde.files.FilesFamilyVerticle;
import dev.sonde.forecast.ForecastFamilyVerticle;
import dev.sonde.forecast.TableForecasts;
import dev.sonde.query.QueryFamilyVerticle;
import dev.sonde.report.AnalysisReports;
import dev.sonde.report.ReportFamilyVerticle;
import dev.sonde.schema.SchemaFamilyVerticle;
import dev.sonde.system.SystemFamilyVerticle;
import dev.sonde.timeseries.Charts;
import dev.sonde.timeseries.TagTables;
import dev.sonde.timeseries.TimeSeriesFamilyVerticle;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The tool families Sonde runs, in the order {@code tools/list} shows them: start-up and the golden
 * {@code tools/list} test build them from this one list.
 */
public final class Families {
  private Families() {}

  /**
   * What the families run on. A null engine lists its family's tools without running them (the
   * golden test); a null {@code docs} leaves the docs family out.
   */
  public record Engines(
      Instant startedAt,
      TagTables tagTables,
      Charts charts,
      Dashboards dashboards,
      TableForecasts forecasts,
      AnalysisReports reports,
      ChatBi chatBi,
      DocsLibrary docs) {}

  public static List<FamilyVerticle> of(FamilyServices services, Engines engines) {
    List<FamilyVerticle> families = new ArrayList<>();
    families.add(new SystemFamilyVerticle(services, engines.startedAt()));
    families.add(new SchemaFamilyVerticle(services));
    families.add(new QueryFamilyVerticle(services));
    families.add(new TimeSeriesFamilyVerticle(services, engines.tagTables(), engines.charts()));
    families.add(new DashboardFamilyVerticle(services, engines.dashboards()));
    families.add(new ForecastFamilyVerticle(services, engines.forecasts()));
    families.add(new ReportFamilyVerticle(services, engines.reports()));
    families.add(new FilesFamilyVerticle(services));
    families.add(new ChatBiFamilyVerticle(services, engines.chatBi()));
    if (engines.docs() != null) {
      families.add(new DocsFamilyVerticle(services, engines.docs()));
    }
    return families;
  }
}
