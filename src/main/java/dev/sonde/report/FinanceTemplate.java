package dev.sonde.report;

import dev.sonde.core.CallerException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * R-1-finance: price bands, log returns, annualised volatility, Bollinger bands (20 buckets, two
 * standard deviations), maximum drawdown, a log scale when the price spans more than ten times, and
 * candlesticks.
 */
final class FinanceTemplate implements ReportTemplate {
  static final String ID = "R-1-finance";
  private static final int BOLLINGER = 20;
  private static final double YEAR_MS = 365.25 * 86_400_000;

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String title() {
    return "Price analysis";
  }

  @Override
  public String description() {
    return "price bands, log returns, annualised volatility, Bollinger bands, max drawdown,"
        + " candlesticks";
  }

  /** The price among the tags: close, price or last when present, else the first. */
  static Series price(List<Series> series) {
    for (String name : List.of("close", "price", "last", "adj_close")) {
      for (Series s : series) {
        if (s.tag().equalsIgnoreCase(name)) {
          return s;
        }
      }
    }
    return series.get(0);
  }

  @Override
  public Analysis analyse(ReportData data) {
    Series p = price(data.series());
    double[] v = p.values();
    int n = v.length;
    if (n < 3) {
      throw new CallerException("a price report needs at least 3 buckets; widen the period");
    }
    double[] returns = new double[n - 1];
    for (int i = 1; i < n; i++) {
      returns[i - 1] = v[i] > 0 && v[i - 1] > 0 ? Math.log(v[i] / v[i - 1]) : 0;
    }
    DescriptiveStatistics r = new DescriptiveStatistics(returns);
    double step = (double) (p.times()[n - 1] - p.times()[0]) / (n - 1);
    double perYear = YEAR_MS / step;
    double volatility = r.getStandardDeviation() * Math.sqrt(perYear);
    DescriptiveStatistics prices = new DescriptiveStatistics(v);
    double peak = v[0];
    int peakAt = 0;
    double worst = 0;
    int worstPeak = 0;
    int worstTrough = 0;
    double[] drawdown = new double[n];
    for (int i = 0; i < n; i++) {
      if (v[i] > peak) {
        peak = v[i];
        peakAt = i;
      }
      drawdown[i] = peak > 0 ? v[i] / peak - 1 : 0;
      if (drawdown[i] < worst) {
        worst = drawdown[i];
        worstPeak = peakAt;
        worstTrough = i;
      }
    }
    double[] middle = new double[n];
    double[] upper = new double[n];
    double[] lower = new double[n];
    for (int i = 0; i < n; i++) {
      if (i < BOLLINGER - 1) {
        middle[i] = upper[i] = lower[i] = Double.NaN;
        continue;
      }
      DescriptiveStatistics w =
          new DescriptiveStatistics(java.util.Arrays.copyOfRange(v, i - BOLLINGER + 1, i + 1));
      double sd = Math.sqrt(w.getPopulationVariance());
      middle[i] = w.getMean();
      upper[i] = middle[i] + 2 * sd;
      lower[i] = middle[i] - 2 * sd;
    }
    boolean logScale = prices.getMin() > 0 && prices.getMax() / prices.getMin() > 10;
    double percentB =
        Double.isFinite(upper[n - 1]) && upper[n - 1] > lower[n - 1]
            ? (v[n - 1] - lower[n - 1]) / (upper[n - 1] - lower[n - 1])
            : Double.NaN;
    JsonObject summary =
        new JsonObject()
            .put("price_tag", p.tag())
            .put("first", Blocks.round(v[0]))
            .put("last", Blocks.round(v[n - 1]))
            .put("change_pct", Blocks.round((v[n - 1] / v[0] - 1) * 100))
            .put(
                "price_bands",
                new JsonObject()
                    .put("min", Blocks.round(prices.getMin()))
                    .put("p5", Blocks.round(prices.getPercentile(5)))
                    .put("p25", Blocks.round(prices.getPercentile(25)))
                    .put("median", Blocks.round(prices.getPercentile(50)))
                    .put("p75", Blocks.round(prices.getPercentile(75)))
                    .put("p95", Blocks.round(prices.getPercentile(95)))
                    .put("max", Blocks.round(prices.getMax())))
            .put("mean_log_return", Blocks.round(r.getMean()))
            .put("log_return_std", Blocks.round(r.getStandardDeviation()))
            .put("annualised_volatility_pct", Blocks.round(volatility * 100))
            .put("buckets_per_year", Blocks.round(perYear))
            .put("max_drawdown_pct", Blocks.round(worst * 100))
            .put("drawdown_peak", dev.sonde.core.Times.readable(p.times()[worstPeak], data.zone()))
            .put(
                "drawdown_trough",
                dev.sonde.core.Times.readable(p.times()[worstTrough], data.zone()))
            .put("bollinger_percent_b", Blocks.round(percentB))
            .put("log_scale", logScale);
    List<Section> sections = new ArrayList<>();
    sections.add(
        new Section(
            "Price and volatility",
            Blocks.table(
                List.of("measure", "value"),
                List.of(
                    List.of("price tag", p.tag()),
                    List.of("first → last", Blocks.text(v[0]) + " → " + Blocks.text(v[n - 1])),
                    List.of(
                        "change",
                        String.format(Locale.ROOT, "%.2f%%", (v[n - 1] / v[0] - 1) * 100)),
                    List.of(
                        "5% – 95% band",
                        Blocks.text(prices.getPercentile(5))
                            + " – "
                            + Blocks.text(prices.getPercentile(95))),
                    List.of(
                        "annualised volatility",
                        String.format(
                            Locale.ROOT,
                            "%.2f%% (%s buckets a year)",
                            volatility * 100,
                            Blocks.text(perYear))),
                    List.of(
                        "maximum drawdown",
                        String.format(
                            Locale.ROOT,
                            "%.2f%% (%s → %s)",
                            worst * 100,
                            summary.getString("drawdown_peak"),
                            summary.getString("drawdown_trough"))),
                    List.of("Bollinger %B now", Blocks.text(percentB)))),
            List.of(
                Blocks.timeChart(
                    "Price with Bollinger bands ("
                        + BOLLINGER
                        + ", 2σ)"
                        + (logScale ? ", log scale" : ""),
                    List.of(
                        Blocks.line(p.tag(), Blocks.points(p.times(), v)),
                        Blocks.line("upper band", Blocks.points(p.times(), upper)),
                        Blocks.line("middle", Blocks.points(p.times(), middle)),
                        Blocks.line("lower band", Blocks.points(p.times(), lower))),
                    logScale))));
    if (data.candles() != null) {
      sections.add(new Section("Candlesticks", "", List.of(candles(data.candles(), logScale))));
    }
    sections.add(
        new Section(
            "Returns and drawdown",
            "",
            List.of(
                Blocks.histogram("Log returns", returns, 30),
                Blocks.timeChart(
                    "Drawdown from the running peak",
                    List.of(Blocks.line("drawdown", Blocks.points(p.times(), drawdown))),
                    false))));
    return new Analysis(summary, sections);
  }

  private static JsonObject candles(ReportData.Candles c, boolean logScale) {
    JsonArray data = new JsonArray();
    for (int i = 0; i < c.times().length; i++) {
      double[] o = c.ocLh()[i];
      data.add(
          new JsonArray()
              .add(c.times()[i])
              .add(Blocks.round(o[0]))
              .add(Blocks.round(o[1]))
              .add(Blocks.round(o[2]))
              .add(Blocks.round(o[3])));
    }
    JsonObject chart =
        Blocks.timeChart(
            "Candlesticks of " + c.tag() + " (open, close, low, high per bucket)",
            List.of(
                new JsonObject().put("name", c.tag()).put("type", "candlestick").put("data", data)),
            logScale);
    return chart;
  }
}
