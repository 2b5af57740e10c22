package dev.sonde.report;

import dev.sonde.core.CallerException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A template made of standard sections: the built-in R-0-general (statistics, trend, distribution)
 * and every custom C-* template, which lists the sections it wants.
 */
final class SectionTemplate implements ReportTemplate {
  static final Set<String> SECTIONS =
      Set.of("statistics", "trend", "distribution", "daily_profile", "peak_hours");

  private final String id;
  private final String title;
  private final String description;
  private final List<String> sections;
  private final String unit;

  SectionTemplate(String id, String title, String description, List<String> sections, String unit) {
    for (String s : sections) {
      if (!SECTIONS.contains(s)) {
        throw new CallerException(
            "template "
                + id
                + ": unknown section '"
                + s
                + "'; use "
                + new java.util.TreeSet<>(SECTIONS));
      }
    }
    this.id = id;
    this.title = title;
    this.description = description;
    this.sections = List.copyOf(sections);
    this.unit = unit == null ? "" : unit;
  }

  static SectionTemplate general() {
    return new SectionTemplate(
        "R-0-general",
        "General analysis",
        "statistics, trend chart and distribution of each tag",
        List.of("statistics", "trend", "distribution"),
        "");
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String title() {
    return title;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public Analysis analyse(ReportData data) {
    JsonObject summary = new JsonObject();
    if (!unit.isEmpty()) {
      summary.put("unit", unit);
    }
    List<Section> out = new ArrayList<>();
    for (String section : sections) {
      switch (section) {
        case "statistics" -> out.add(statistics(data, summary));
        case "trend" -> out.add(trend(data));
        case "distribution" -> out.add(distribution(data));
        case "daily_profile" -> out.add(dailyProfile(data, summary));
        default -> out.add(peakHours(data, summary));
      }
    }
    return new Analysis(summary, out);
  }

  private Section statistics(ReportData data, JsonObject summary) {
    JsonObject tags = new JsonObject();
    List<List<Object>> rows = new ArrayList<>();
    for (Series s : data.series()) {
      JsonObject stats = Blocks.statistics(s);
      tags.put(s.tag(), stats);
      rows.add(
          List.of(
              s.tag(),
              stats.getLong("count"),
              stats.getDouble("mean"),
              stats.getDouble("std"),
              stats.getDouble("min"),
              stats.getDouble("median"),
              stats.getDouble("max"),
              stats.getDouble("trend_per_day")));
    }
    summary.put("statistics", tags);
    String unitNote = unit.isEmpty() ? "" : " (" + unit + ")";
    return new Section(
        "Statistics" + unitNote,
        Blocks.table(
            List.of("tag", "count", "mean", "std", "min", "median", "max", "trend / day"), rows),
        List.of());
  }

  private static Section trend(ReportData data) {
    List<JsonObject> lines = new ArrayList<>();
    for (Series s : data.series()) {
      lines.add(Blocks.line(s.tag(), Blocks.points(s.times(), s.values())));
      int window = Math.max(3, s.values().length / 20);
      lines.add(
          Blocks.line(
              s.tag() + " moving average",
              Blocks.points(s.times(), Blocks.movingAverage(s.values(), window))));
    }
    return new Section(
        "Trend",
        Blocks.paragraph("Values with a centred moving average over a twentieth of the period."),
        List.of(Blocks.timeChart("Trend", lines, false)));
  }

  private static Section distribution(ReportData data) {
    List<JsonObject> charts = new ArrayList<>();
    for (Series s : data.series()) {
      charts.add(Blocks.histogram("Distribution of " + s.tag(), s.values(), 20));
    }
    return new Section("Distribution", "", charts);
  }

  /** Mean per hour of the day in the user's zone. */
  private static double[][] byHour(ReportData data, Series s) {
    double[] sum = new double[24];
    double[] count = new double[24];
    for (int i = 0; i < s.values().length; i++) {
      int hour = Instant.ofEpochMilli(s.times()[i]).atZone(data.zone()).getHour();
      sum[hour] += s.values()[i];
      count[hour]++;
    }
    return new double[][] {sum, count};
  }

  private Section dailyProfile(ReportData data, JsonObject summary) {
    List<JsonObject> bars = new ArrayList<>();
    JsonObject profiles = new JsonObject();
    JsonArray hours = new JsonArray();
    for (int h = 0; h < 24; h++) {
      hours.add(String.format("%02d", h));
    }
    for (Series s : data.series()) {
      double[][] byHour = byHour(data, s);
      JsonArray means = new JsonArray();
      for (int h = 0; h < 24; h++) {
        means.add(byHour[1][h] == 0 ? null : Blocks.round(byHour[0][h] / byHour[1][h]));
      }
      profiles.put(s.tag(), means);
      bars.add(new JsonObject().put("name", s.tag()).put("type", "bar").put("data", means));
    }
    summary.put("daily_profile", profiles);
    JsonObject chart =
        Blocks.chart("Mean by hour of day (" + data.zone().getId() + ")")
            .put("xAxis", new JsonObject().put("type", "category").put("data", hours))
            .put("yAxis", new JsonObject().put("type", "value").put("name", unit))
            .put("series", new JsonArray(bars));
    return new Section("Daily profile", "", List.of(chart));
  }

  private Section peakHours(ReportData data, JsonObject summary) {
    List<List<Object>> rows = new ArrayList<>();
    JsonObject peaks = new JsonObject();
    for (Series s : data.series()) {
      double[][] byHour = byHour(data, s);
      List<Integer> order = new ArrayList<>();
      for (int h = 0; h < 24; h++) {
        if (byHour[1][h] > 0) {
          order.add(h);
        }
      }
      order.sort(Comparator.comparingDouble((Integer h) -> byHour[0][h] / byHour[1][h]).reversed());
      JsonArray top = new JsonArray();
      for (int h : order.subList(0, Math.min(3, order.size()))) {
        double mean = byHour[0][h] / byHour[1][h];
        top.add(new JsonObject().put("hour", h).put("mean", Blocks.round(mean)));
        rows.add(List.of(s.tag(), String.format("%02d:00", h), mean));
      }
      peaks.put(s.tag(), top);
    }
    summary.put("peak_hours", peaks);
    return new Section(
        "Peak hours",
        Blocks.table(List.of("tag", "hour", "mean" + (unit.isEmpty() ? "" : " " + unit)), rows),
        List.of());
  }
}
