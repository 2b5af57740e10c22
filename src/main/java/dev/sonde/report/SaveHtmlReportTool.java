package dev.sonde.report;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.sonde.core.Call;
import dev.sonde.tools.ConnectionArg;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * save_html_report, in two calls as the reference toolset has it: the first fetches the data,
 * computes the template's measures and returns a compact summary for the agent to interpret; the
 * second, with {@code analysis} (Markdown), renders the report and saves it in the workspace.
 */
final class SaveHtmlReportTool implements Tool {
  private static final List<String> CONTEXT = List.of("tag_count", "data_count", "time_range");

  private final FamilyServices services;
  private final AnalysisReports reports;
  private final ToolSpec spec;

  SaveHtmlReportTool(FamilyServices services, AnalysisReports reports) {
    this.services = services;
    this.reports = reports;
    JsonObject input = Schemas.object();
    Schemas.prop(input, "table", Schemas.string("The tag table").put("minLength", 1), true);
    Schemas.prop(
        input,
        "template_id",
        Schemas.string(
            "R-0-general, R-1-finance, R-2-vibration, R-3-driving or a custom C-* template;"
                + " omitted: chosen from the data (and said)"),
        false);
    Schemas.prop(
        input,
        "tag_name",
        Schemas.string(
            "The tag, or tags separated by commas (driving: \"speed,rpm\"); omitted: the "
                + AnalysisReports.DEFAULT_TAGS
                + " tags with the most data, with a warning"),
        false);
    Schemas.prop(
        input,
        "analysis",
        Schemas.string(
            "Your analysis in Markdown, written from the first call's summary; giving it saves"
                + " the report",
            Schemas.TEXT_LENGTH),
        false);
    Schemas.prop(
        input,
        "recommendations",
        Schemas.string("Recommendations in Markdown (optional)", Schemas.TEXT_LENGTH),
        false);
    Schemas.prop(
        input,
        "rollup_unit",
        Schemas.string("Bucket unit: sec, min, hour, day, week, month; omitted: from the range"),
        false);
    Schemas.prop(
        input, "time_start", Schemas.string("Period start (ISO, epoch ms, now-7d)"), false);
    Schemas.prop(input, "time_end", Schemas.string("Period end (ISO, epoch ms, last)"), false);
    for (String key : CONTEXT) {
      Schemas.prop(
          input, key, Schemas.string("Shown in the report as the caller reported it"), false);
    }
    this.spec =
        ToolSpec.builder("save_html_report")
            .title("Save an HTML analysis report")
            .description(
                "Writes an HTML analysis report of a tag table in two calls. First call (no"
                    + " analysis): Sonde fetches the data, computes the template's measures and"
                    + " returns a compact summary; read it and call again with the same"
                    + " arguments plus analysis (Markdown) and optionally recommendations. The"
                    + " second call renders a self-contained report (charts inside, opens"
                    + " offline, prints) into your workspace and returns its link. Templates:"
                    + " R-0-general (statistics, trend, distribution), R-1-finance (price bands,"
                    + " log returns, volatility, Bollinger bands, drawdown, candlesticks),"
                    + " R-2-vibration (RMS, crest factor, kurtosis, FFT and envelope spectra, ISO"
                    + " 10816 zones), R-3-driving (speed/RPM correlation, gears, driving"
                    + " segments), and custom C-* ones.")
            .input(TimezoneArg.addTo(ConnectionArg.addTo(input)))
            .output(Schemas.result("stage", "string", "template", "object", "table", "string"))
            .annotations(new ToolAnnotations(false, false, true, false))
            .mode(ExecutionMode.JOB)
            .build();
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    JsonObject args = ctx.args();
    ZoneId zone = TimezoneArg.zone(services, ctx);
    Call call = ctx.call();
    String tagNames = args.getString("tag_name");
    List<String> tags =
        tagNames == null || tagNames.isBlank()
            ? List.of()
            : Arrays.stream(tagNames.split(","))
                .map(String::trim)
                .filter(t -> !t.isEmpty())
                .toList();
    AnalysisReports.Request request =
        new AnalysisReports.Request(
            args.getString("table"),
            args.getString("template_id"),
            tags,
            args.getString("rollup_unit"),
            args.getString("time_start"),
            args.getString("time_end"));
    call.step(
        "fetch",
        "reading " + (tags.isEmpty() ? "the busiest tags" : tags) + " of " + request.table());
    return reports
        .prepare(args.getString("connection"), request, zone, call)
        .compose(prepared -> call.blocking(() -> answer(ctx, zone, prepared)));
  }

  /** The summary to interpret, or (with analysis) the saved report and its link. */
  private ToolResult answer(ToolContext ctx, ZoneId zone, AnalysisReports.Prepared prepared) {
    JsonObject args = ctx.args();
    Call call = ctx.call();
    call.step("analyse", prepared.template().id() + ": " + prepared.reason());
    JsonObject template =
        new JsonObject()
            .put("id", prepared.template().id())
            .put("title", prepared.template().title())
            .put("chosen_because", prepared.reason());
    JsonObject out =
        new JsonObject()
            .put("template", template)
            .put("table", prepared.table())
            .put("tags", new JsonArray(prepared.tags()))
            .put("unit", prepared.unit())
            .put("range", prepared.range())
            .put("notices", new JsonArray(prepared.notices()));
    String analysis = args.getString("analysis");
    if (analysis == null || analysis.isBlank()) {
      JsonArray available = new JsonArray();
      for (ReportTemplate t : reports.templates().all()) {
        available.add(
            new JsonObject()
                .put("id", t.id())
                .put("title", t.title())
                .put("covers", t.description()));
      }
      return ToolResult.structured(
          out.put("stage", "summary")
              .put("summary", prepared.analysis().summary())
              .put("templates", available)
              .put(
                  "next",
                  "Interpret this summary, then call save_html_report again with the same"
                      + " arguments plus analysis (Markdown) and, if you like,"
                      + " recommendations; that call saves the report and returns its"
                      + " link."));
    }
    call.step("render", "writing the HTML report");
    Map<String, String> context = new LinkedHashMap<>();
    for (String key : CONTEXT) {
      Object v = args.getValue(key);
      if (v != null) {
        context.put(key.replace('_', ' '), String.valueOf(v));
      }
    }
    Instant now = Instant.now();
    String html =
        reports.render(prepared, analysis, args.getString("recommendations"), context, now);
    String path =
        services
            .files()
            .saveNewReport(
                ctx.account(),
                List.of(
                    prepared.table(), String.join("_", prepared.tags()), prepared.template().id()),
                now,
                zone,
                html);
    return ToolResult.structured(
        out.put("stage", "saved")
            .put("report", services.files().webLink(path, "/workspace/" + path))
            .put("bytes", html.getBytes(UTF_8).length));
  }
}
