package dev.sonde.report;

import static dev.sonde.tools.ConnectionArg.CONNECTION;
import static dev.sonde.tools.TimezoneArg.TIMEZONE;
import static io.vertx.json.schema.common.dsl.Keywords.maxLength;
import static io.vertx.json.schema.common.dsl.Keywords.minLength;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.sonde.core.Call;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TaskSupport;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import dev.sonde.tools.WorkspaceFiles;
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
  private static final Arg<String> TABLE =
      Arg.string("table", "The tag table", minLength(1)).required();
  private static final Arg<String> TEMPLATE =
      Arg.string(
          "template_id",
          "R-0-general, R-1-finance, R-2-vibration, R-3-driving or a custom C-* template; omitted:"
              + " chosen from the data (and said)");
  private static final Arg<String> TAG_NAME =
      Arg.string(
          "tag_name",
          "The tag, or tags separated by commas (driving: \"speed,rpm\"); omitted: the "
              + AnalysisReports.DEFAULT_TAGS
              + " tags with the most data, with a warning");
  private static final Arg<String> ANALYSIS =
      Arg.string(
          "analysis",
          "Your analysis in Markdown, written from the first call's summary; giving it saves the"
              + " report",
          maxLength(Schemas.TEXT_LENGTH));
  private static final Arg<String> RECOMMENDATIONS =
      Arg.string(
          "recommendations",
          "Recommendations in Markdown (optional)",
          maxLength(Schemas.TEXT_LENGTH));
  private static final Arg<String> ROLLUP_UNIT =
      Arg.string(
          "rollup_unit", "Bucket unit: sec, min, hour, day, week, month; omitted: from the range");
  private static final Arg<String> TIME_START =
      Arg.string("time_start", "Period start (ISO, epoch ms, now-7d)");
  private static final Arg<String> TIME_END =
      Arg.string("time_end", "Period end (ISO, epoch ms, last)");

  private static final Arg<String> TAG_COUNT = reported("tag_count");
  private static final Arg<String> DATA_COUNT = reported("data_count");
  private static final Arg<String> TIME_RANGE = reported("time_range");

  /** What the caller says of the data, shown in the report as said. */
  private static final List<Arg<String>> CONTEXT = List.of(TAG_COUNT, DATA_COUNT, TIME_RANGE);

  private final AnalysisReports reports;
  private final WorkspaceFiles files;
  private final String configuredZone;
  private final ToolSpec spec;

  SaveHtmlReportTool(AnalysisReports reports, WorkspaceFiles files, String configuredZone) {
    this.reports = reports;
    this.files = files;
    this.configuredZone = configuredZone;
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
            .input(
                TABLE,
                TEMPLATE,
                TAG_NAME,
                ANALYSIS,
                RECOMMENDATIONS,
                ROLLUP_UNIT,
                TIME_START,
                TIME_END,
                TAG_COUNT,
                DATA_COUNT,
                TIME_RANGE,
                CONNECTION,
                TIMEZONE)
            .output(Schemas.result("stage", "string", "template", "object", "table", "string"))
            .annotations(new ToolAnnotations(false, false, true, false))
            .mode(ExecutionMode.JOB)
            .tasks(TaskSupport.OPTIONAL)
            .build();
  }

  private static Arg<String> reported(String name) {
    return Arg.string(name, "Shown in the report as the caller reported it");
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    ZoneId zone = TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone);
    Call call = ctx.call();
    String tagNames = ctx.arg(TAG_NAME);
    List<String> tags =
        tagNames == null || tagNames.isBlank()
            ? List.of()
            : Arrays.stream(tagNames.split(","))
                .map(String::trim)
                .filter(t -> !t.isEmpty())
                .toList();
    AnalysisReports.Request request =
        new AnalysisReports.Request(
            ctx.arg(TABLE),
            ctx.arg(TEMPLATE),
            tags,
            ctx.arg(ROLLUP_UNIT),
            ctx.arg(TIME_START),
            ctx.arg(TIME_END));
    call.step(
        "fetch",
        "reading " + (tags.isEmpty() ? "the busiest tags" : tags) + " of " + request.table());
    return reports
        .prepare(ctx.arg(CONNECTION), request, zone, call)
        .compose(prepared -> call.blocking(() -> answer(ctx, zone, prepared)));
  }

  /** The summary to interpret, or (with analysis) the saved report and its link. */
  private ToolResult answer(ToolContext ctx, ZoneId zone, AnalysisReports.Prepared prepared) {
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
    String analysis = ctx.arg(ANALYSIS);
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
    for (Arg<String> said : CONTEXT) {
      String value = ctx.arg(said);
      if (value != null) {
        context.put(said.name().replace('_', ' '), value);
      }
    }
    Instant now = Instant.now();
    String html = reports.render(prepared, analysis, ctx.arg(RECOMMENDATIONS), context, now);
    String path =
        files.saveNewReport(
            ctx.account(),
            List.of(prepared.table(), String.join("_", prepared.tags()), prepared.template().id()),
            now,
            zone,
            html);
    return ToolResult.structured(
        out.put("stage", "saved")
            .put("report", files.fileLink(ctx.account(), path))
            .put("bytes", html.getBytes(UTF_8).length));
  }
}
