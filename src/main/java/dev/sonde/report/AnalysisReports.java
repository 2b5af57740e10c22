package dev.sonde.report;

import static dev.sonde.core.HtmlPage.escape;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.HtmlPage;
import dev.sonde.core.Times;
import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.tools.FamilyAsks;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.DefaultUrlSanitizer;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * save_html_report's work: fetch a tag table's data the way its template needs it (bucket averages
 * through the chart compiler, rollups where they fit, or raw samples), let the template compute its
 * findings, and render the self-contained report with the agent's analysis.
 */
public final class AnalysisReports {
  /** Tags analysed when the caller names none. */
  public static final int DEFAULT_TAGS = 5;

  private static final Parser MARKDOWN = Parser.builder().build();

  /**
   * Links and images may be web or mail addresses: no data: or javascript: URL reaches a report.
   */
  private static final HtmlRenderer HTML =
      HtmlRenderer.builder()
          .escapeHtml(true)
          .sanitizeUrls(true)
          .urlSanitizer(new DefaultUrlSanitizer(List.of("http", "https", "mailto")))
          .build();

  private final DatabaseRegistry databases;
  private final FamilyAsks asks;
  private final ReportTemplates templates;

  /** Reports over {@code databases}, their tag tables read by asking the time-series family. */
  public AnalysisReports(DatabaseRegistry databases, FamilyAsks asks, ReportTemplates templates) {
    this.databases = databases;
    this.asks = asks;
    this.templates = templates;
  }

  public ReportTemplates templates() {
    return templates;
  }

  /** What was asked: the table, optionally the template, tags, bucket unit and period. */
  public record Request(
      String table,
      String templateId,
      List<String> tags,
      String rollupUnit,
      String timeStart,
      String timeEnd) {}

  /** The data fetched and analysed, ready to summarise or render. */
  public record Prepared(
      ReportTemplate template,
      String reason,
      String table,
      List<String> tags,
      String unit,
      ZoneId zone,
      JsonObject range,
      List<String> notices,
      Analysis analysis) {}

  public Future<Prepared> prepare(String connection, Request request, ZoneId zone, Call call) {
    Database db = databases.get(connection, call.account());
    List<String> notices = new ArrayList<>();
    boolean named = request.templateId() != null && !request.templateId().isBlank();
    boolean tagged = request.tags() != null && !request.tags().isEmpty();
    // per-tag counts scan the table where no hour rollup is current: read them only to pick tags
    // or a template
    return asks.tagStats(db.name(), request.table(), !(named && tagged), !named, call)
        .compose(
            stats -> {
              Table table = new Table(stats.getString("table"), stats.getString("qualified"));
              List<String> tags = tagged ? request.tags() : busiest(stats, notices);
              ReportTemplates.Choice choice =
                  named
                      ? new ReportTemplates.Choice(
                          templates.get(request.templateId()), "named by the caller")
                      : templates.choose(
                          table.name(),
                          tags,
                          rate(stats.getJsonObject("spans"), stats.getJsonObject("counts"), tags));
              return fetch(db.name(), table, tags, choice, request, zone, notices, call);
            });
  }

  /** The tag table reported on: its name and its qualified name. */
  private record Table(String name, String qualified) {}

  /** The tags with the most values, when the caller names none, said in a notice. */
  private static List<String> busiest(JsonObject stats, List<String> notices) {
    List<String> byCount =
        stats.getJsonArray("by_count", new JsonArray()).stream().map(String::valueOf).toList();
    if (byCount.isEmpty()) {
      throw new CallerException("the table has no rows to report on");
    }
    List<String> top = byCount.subList(0, Math.min(DEFAULT_TAGS, byCount.size()));
    notices.add(
        "no tag_name was given: analysing the "
            + top.size()
            + " tags with the most data of "
            + byCount.size()
            + " ("
            + String.join(", ", top)
            + "); name tags in tag_name to choose");
    return top;
  }

  /** The highest sample rate (per second) among the tags: values over their time span. */
  private static double rate(JsonObject spans, JsonObject counts, List<String> tags) {
    double best = 0;
    for (String tag : tags) {
      JsonArray span = spans.getJsonArray(tag);
      Long count = counts.getLong(tag);
      if (span != null && count != null && span.getLong(1) > span.getLong(0)) {
        best = Math.max(best, count * 1000.0 / (span.getLong(1) - span.getLong(0)));
      }
    }
    return best;
  }

  private Future<Prepared> fetch(
      String connection,
      Table table,
      List<String> tags,
      ReportTemplates.Choice choice,
      Request request,
      ZoneId zone,
      List<String> notices,
      Call call) {
    ReportTemplate template = choice.template();
    boolean raw =
        template.wantsRaw()
            && (request.rollupUnit() == null || template instanceof VibrationTemplate);
    List<Future<JsonObject>> fetches = new ArrayList<>();
    for (String tag : tags) {
      fetches.add(
          asks.chartData(connection, spec(table, tag, raw, request, "metrics"), zone, null, call));
    }
    boolean candles = template instanceof FinanceTemplate;
    String priceTag = candles ? priceTag(tags) : null;
    if (candles) {
      fetches.add(
          asks.chartData(
              connection, spec(table, priceTag, false, request, "ohlc"), zone, null, call));
    }
    return Future.all(fetches)
        .compose(
            all ->
                call.blocking(
                    () -> {
                      List<Series> series = new ArrayList<>();
                      String unit = "raw";
                      long first = Long.MAX_VALUE;
                      long last = Long.MIN_VALUE;
                      for (int i = 0; i < tags.size(); i++) {
                        JsonObject c = all.resultAt(i);
                        JsonObject plan = c.getJsonObject("document").getJsonObject("plan");
                        String tag = tags.get(i);
                        plan.getJsonArray("notices", new JsonArray())
                            .forEach(n -> notices.add(tag + ": " + n));
                        unit = unitOf(plan);
                        Series s =
                            series(
                                tags.get(i),
                                c.getJsonArray("series").getJsonObject(0).getJsonArray("data"));
                        series.add(s);
                        if (s.times().length > 0) {
                          first = Math.min(first, s.times()[0]);
                          last = Math.max(last, s.times()[s.times().length - 1]);
                        }
                      }
                      ReportData.Candles ohlc =
                          candles ? candles(priceTag, all.<JsonObject>resultAt(tags.size())) : null;
                      Analysis analysis = template.analyse(new ReportData(zone, series, ohlc));
                      return new Prepared(
                          template,
                          choice.reason(),
                          table.name(),
                          tags,
                          unit,
                          zone,
                          first <= last ? Times.range(first, last, zone) : new JsonObject(),
                          notices,
                          analysis);
                    }));
  }

  private static String priceTag(List<String> tags) {
    return FinanceTemplate.price(
            tags.stream().map(t -> new Series(t, new long[0], new double[0])).toList())
        .tag();
  }

  private static JsonObject spec(
      Table table, String tag, boolean raw, Request request, String kind) {
    JsonObject spec =
        new JsonObject().put("kind", kind).put("table", table.qualified()).put("tag", tag);
    if (kind.equals("metrics")) {
      spec.put(
          "metrics",
          new JsonArray().add(new JsonObject().put("agg", raw ? "raw" : "avg").put("label", tag)));
    }
    if (raw) {
      spec.putNull("rollup");
    } else if (request.rollupUnit() != null) {
      spec.put("rollup", request.rollupUnit());
    }
    if (request.timeStart() != null || request.timeEnd() != null) {
      JsonObject range = new JsonObject();
      if (request.timeStart() != null) {
        range.put("start", request.timeStart());
      }
      if (request.timeEnd() != null) {
        range.put("end", request.timeEnd());
      }
      spec.put("timeRange", range);
    }
    return spec;
  }

  private static String unitOf(JsonObject plan) {
    String unit = plan.getString("unit");
    return "raw".equals(unit) ? "raw samples" : plan.getInteger("multiple", 1) + " " + unit;
  }

  private static Series series(String tag, JsonArray data) {
    List<long[]> times = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (Object o : data) {
      JsonArray p = (JsonArray) o;
      if (p.getValue(1) != null) {
        times.add(new long[] {p.getLong(0)});
        values.add(p.getDouble(1));
      }
    }
    long[] t = new long[times.size()];
    double[] v = new double[values.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = times.get(i)[0];
      v[i] = values.get(i);
    }
    return new Series(tag, t, v);
  }

  private static ReportData.Candles candles(String tag, JsonObject compiled) {
    JsonArray data = compiled.getJsonArray("series").getJsonObject(0).getJsonArray("data");
    long[] times = new long[data.size()];
    double[][] ocLh = new double[data.size()][];
    for (int i = 0; i < data.size(); i++) {
      JsonArray p = data.getJsonArray(i);
      times[i] = p.getLong(0);
      ocLh[i] = new double[] {p.getDouble(1), p.getDouble(2), p.getDouble(3), p.getDouble(4)};
    }
    return new ReportData.Candles(tag, times, ocLh);
  }

  /** Markdown from an agent as HTML: raw HTML in it is shown as text, unsafe links dropped. */
  static String markdown(String text) {
    return HTML.render(MARKDOWN.parse(text == null ? "" : text));
  }

  /**
   * The report: header, the agent's analysis, the template's sections with their charts, the
   * recommendations, and what the caller said about the data ({@code context}), all escaped.
   */
  public String render(
      Prepared p,
      String analysis,
      String recommendations,
      Map<String, String> context,
      Instant now) {
    StringBuilder html = new StringBuilder();
    String title = p.template().title() + " · " + p.table();
    html.append("<header><h1>")
        .append(escape(title))
        .append("</h1><p class=\"subtitle\">")
        .append(escape(String.join(", ", p.tags())))
        .append(
            p.range().containsKey("start")
                ? " · "
                    + escape(p.range().getString("start"))
                    + " – "
                    + escape(p.range().getString("end"))
                : "")
        .append("</p><p class=\"meta\">Template ")
        .append(escape(p.template().id()))
        .append(" (")
        .append(escape(p.reason()))
        .append(") · ")
        .append(escape(p.unit()))
        .append(" · times in ")
        .append(escape(p.zone().getId()))
        .append(" · made ")
        .append(
            escape(
                DateTimeFormatter.ISO_OFFSET_DATE_TIME
                    .withZone(p.zone())
                    .format(now.truncatedTo(ChronoUnit.SECONDS))))
        .append(" by Sonde</p>");
    if (!context.isEmpty()) {
      html.append("<p class=\"meta\">As reported by the caller: ");
      List<String> parts = new ArrayList<>();
      context.forEach((k, v) -> parts.add(escape(k) + " " + escape(v)));
      html.append(String.join(" · ", parts)).append("</p>");
    }
    html.append("</header>\n");
    if (!p.notices().isEmpty()) {
      html.append("<ul class=\"notices\">");
      p.notices().forEach(n -> html.append("<li>").append(escape(n)).append("</li>"));
      html.append("</ul>\n");
    }
    html.append("<section class=\"analysis\"><h2>Analysis</h2>")
        .append(markdown(analysis))
        .append("</section>\n");
    JsonArray options = new JsonArray();
    for (Section s : p.analysis().sections()) {
      html.append("<section><h2>").append(escape(s.heading())).append("</h2>").append(s.html());
      for (JsonObject chart : s.charts()) {
        html.append("<div class=\"chart\" id=\"chart-").append(options.size()).append("\"></div>");
        options.add(chart);
      }
      html.append("</section>\n");
    }
    if (recommendations != null && !recommendations.isBlank()) {
      html.append("<section class=\"analysis\"><h2>Recommendations</h2>")
          .append(markdown(recommendations))
          .append("</section>\n");
    }
    return new HtmlPage(title)
        .style("report.css")
        .echarts()
        .html(html.toString())
        .data("report-data", new JsonObject().put("zone", p.zone().getId()).put("charts", options))
        .script("charts.js")
        .render();
  }
}
