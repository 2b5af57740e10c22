package dev.sonde.bench;

import dev.sonde.core.Call;
import dev.sonde.forecast.Accuracy;
import dev.sonde.forecast.Forecaster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Forecasts of the M3 series (train and test as the dataset splits them): sMAPE (M3 form) and MASE
 * of the automatic combination, of every single model and of R's forecasts when given, by
 * frequency, and Sonde's series per second for the whole leaderboard. Arguments: m3_long.csv,
 * stride (every Nth series), R's forecasts (bench/r/m3-forecasts.R).
 */
public final class ForecastBench {
  record Series(String id, String period, int m, double[] train, double[] test) {}

  public static void main(String[] args) throws IOException {
    List<Series> all = read(Path.of(args[0]));
    int stride = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    List<Series> chosen = new ArrayList<>();
    for (int i = 0; i < all.size(); i += stride) {
      chosen.add(all.get(i));
    }
    Map<String, Map<String, double[]>> reference =
        args.length > 2 && Files.exists(Path.of(args[2]))
            ? readReference(Path.of(args[2]))
            : Map.of();
    Forecaster forecaster = new Forecaster();
    Map<String, Map<String, double[]>> totals =
        new TreeMap<>(); // method -> period -> [smape, mase, count]
    long spent = 0;
    for (Series s : chosen) {
      long started = System.nanoTime();
      Forecaster.Result r =
          forecaster.forecast(
              s.train(), s.m(), s.test().length, Forecaster.Choice.auto(), Call.Steps.NONE);
      spent += System.nanoTime() - started;
      Map<String, double[]> forecasts = new LinkedHashMap<>();
      r.curves().forEach((id, c) -> forecasts.put(id, c.mean()));
      forecasts.put("auto", r.forecast().mean());
      reference
          .getOrDefault(s.id(), Map.of())
          .forEach((method, f) -> forecasts.put("R " + method, f));
      forecasts.forEach(
          (id, f) -> {
            if (f == null) {
              return;
            }
            double smape = Accuracy.smape(s.test(), f);
            double mase = Accuracy.mase(s.train(), s.m(), s.test(), f);
            for (String key : List.of(s.period(), "ALL")) {
              double[] t =
                  totals
                      .computeIfAbsent(id, k -> new TreeMap<>())
                      .computeIfAbsent(key, k -> new double[3]);
              t[0] += smape;
              t[1] += mase;
              t[2]++;
            }
          });
    }
    double seconds = spent / 1e9;
    System.out.printf(
        Locale.ROOT,
        "Sonde: %d M3 series (every %d), whole leaderboard (every model that applies over 3"
            + " backtest windows, refitted, and the combination), %.1f s: %.1f series/s%n%n",
        chosen.size(),
        stride,
        seconds,
        chosen.size() / seconds);
    System.out.println(
        "| method | sMAPE | MASE | yearly sMAPE / MASE | quarterly | monthly | other | series |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    totals.forEach(
        (id, byPeriod) -> {
          StringBuilder row = new StringBuilder("| " + id);
          double[] a = byPeriod.get("ALL");
          row.append(String.format(Locale.ROOT, " | %.2f | %.3f", a[0] / a[2], a[1] / a[2]));
          for (String p : List.of("YEARLY", "QUARTERLY", "MONTHLY", "OTHER")) {
            double[] t = byPeriod.get(p);
            row.append(
                t == null
                    ? " | -"
                    : String.format(Locale.ROOT, " | %.2f / %.2f", t[0] / t[2], t[1] / t[2]));
          }
          row.append(" | ").append((int) a[2]).append(" |");
          System.out.println(row);
        });
  }

  /** R's forecasts as bench/r/m3-forecasts.R writes them: series -> method -> values. */
  static Map<String, Map<String, double[]>> readReference(Path csv) throws IOException {
    Map<String, Map<String, List<Double>>> values = new LinkedHashMap<>();
    try (var lines = Files.lines(csv)) {
      lines
          .skip(1)
          .filter(line -> !line.endsWith(",NA")) // hw where a series has no two full seasons
          .forEach(
              line -> {
                String[] f = line.split(",");
                values
                    .computeIfAbsent(f[0], k -> new LinkedHashMap<>())
                    .computeIfAbsent(f[1], k -> new ArrayList<>())
                    .add(Double.parseDouble(f[3]));
              });
    }
    Map<String, Map<String, double[]>> out = new LinkedHashMap<>();
    values.forEach(
        (id, byMethod) -> {
          Map<String, double[]> m = new LinkedHashMap<>();
          byMethod.forEach(
              (method, v) -> m.put(method, v.stream().mapToDouble(Double::doubleValue).toArray()));
          out.put(id, m);
        });
    return out;
  }

  static List<Series> read(Path csv) throws IOException {
    Map<String, String[]> meta = new LinkedHashMap<>();
    Map<String, List<Double>> train = new LinkedHashMap<>();
    Map<String, List<Double>> test = new LinkedHashMap<>();
    try (var lines = Files.lines(csv)) {
      lines
          .skip(1)
          .forEach(
              line -> {
                String[] f = line.replace("\"", "").split(",");
                meta.putIfAbsent(f[0], new String[] {f[1], f[3]});
                (f[4].equals("train") ? train : test)
                    .computeIfAbsent(f[0], k -> new ArrayList<>())
                    .add(Double.parseDouble(f[6]));
              });
    }
    List<Series> out = new ArrayList<>();
    meta.forEach(
        (id, m) ->
            out.add(
                new Series(
                    id,
                    m[0],
                    Integer.parseInt(m[1]),
                    train.get(id).stream().mapToDouble(Double::doubleValue).toArray(),
                    test.get(id).stream().mapToDouble(Double::doubleValue).toArray())));
    return out;
  }
}
