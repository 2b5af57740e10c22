package dev.sonde.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sonde's textbook models against R's forecast package on the M3 series (fixtures written by
 * bench/r/m3-forecasts.R and bench/r/m3-fixtures.R): point forecasts on every 50th series, and
 * sMAPE and MASE over all 3,003 (Holt-Winters: those with two full seasons and two points). R's
 * ses, holt and damped holt do not adjust for seasonality; its thetaf does, as Sonde's Theta does.
 */
class VersusRTest {
  record Series(String id, int m, double[] train, double[] test) {}

  static Map<String, Series> m3;

  @BeforeAll
  static void read() throws IOException {
    Map<String, Integer> freq = new LinkedHashMap<>();
    Map<String, List<Double>> train = new LinkedHashMap<>();
    Map<String, List<Double>> test = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(Path.of("../shared/datasets/m3/m3_long.csv"));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.replace("\"", "").split(",");
      freq.putIfAbsent(f[0], Integer.parseInt(f[3]));
      (f[4].equals("train") ? train : test)
          .computeIfAbsent(f[0], k -> new ArrayList<>())
          .add(Double.parseDouble(f[6]));
    }
    m3 = new LinkedHashMap<>();
    freq.forEach(
        (id, m) -> m3.put(id, new Series(id, m, array(train.get(id)), array(test.get(id)))));
  }

  private static double[] array(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static Model model(String method) {
    return switch (method) {
      case "ses" -> new Smoothing(Smoothing.Form.SES);
      case "holt" -> new Smoothing(Smoothing.Form.HOLT);
      case "damped" -> new Smoothing(Smoothing.Form.DAMPED);
      case "holtwinters" -> new Smoothing(Smoothing.Form.HOLT_WINTERS);
      case "holtwinters_mult" -> new Smoothing(Smoothing.Form.HOLT_WINTERS_MULT);
      default -> new Theta();
    };
  }

  static double[] sonde(String method, Series s) {
    int h = s.test().length;
    int period = s.m() > 1 && s.train().length >= 3 * s.m() ? s.m() : 1;
    return method.equals("theta")
        ? Forecaster.run(model(method), s.train(), period, h).mean()
        : model(method).predict(s.train(), s.m(), h).mean();
  }

  static List<String[]> fixture(String name) throws IOException {
    try (InputStream in = VersusRTest.class.getResourceAsStream("/forecast/" + name)) {
      List<String[]> rows = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        rows.add(line.split(","));
      }
      return rows.subList(1, rows.size());
    }
  }

  @Test
  void pointForecastsAgreeWithRsOnASampleOfSeries() throws IOException {
    Map<String, List<Double>> reference = new LinkedHashMap<>();
    for (String[] row : fixture("m3-r-sample.csv")) {
      reference
          .computeIfAbsent(row[0] + "," + row[1], k -> new ArrayList<>())
          .add(Double.parseDouble(row[3]));
    }
    Map<String, int[]> close = new LinkedHashMap<>();
    List<String> far = new ArrayList<>();
    reference.forEach(
        (key, values) -> {
          String[] idMethod = key.split(",");
          double[] ours = sonde(idMethod[1], m3.get(idMethod[0]));
          double diff = 0;
          double size = 0;
          for (int j = 0; j < ours.length; j++) {
            diff += Math.abs(ours[j] - values.get(j));
            size += Math.abs(values.get(j));
          }
          double relative = diff / size;
          int[] tally = close.computeIfAbsent(idMethod[1], k -> new int[2]);
          tally[1]++;
          if (relative < 0.001) {
            tally[0]++;
          } else if (relative > 0.10) {
            far.add(key + String.format(" %.1f%%", relative * 100));
          }
        });
    close.forEach(
        (method, tally) ->
            assertTrue(
                tally[0] >= 0.9 * tally[1],
                method + ": " + tally[0] + " of " + tally[1] + " series within 0.1% of R"));
    assertTrue(far.size() <= 1, "more than 10% from R: " + far);
  }

  @Test
  void wholeDatasetAccuracyIsWithinPointThreeOfRs() throws IOException {
    for (String[] row : fixture("m3-r-accuracy.csv")) {
      String method = row[0];
      double smape = 0;
      double mase = 0;
      int count = 0;
      for (Series s : m3.values()) {
        // R's hw, like Sonde's, forecasts only series with two full seasons
        if (!model(method).fits(s.train().length, s.m())) {
          continue;
        }
        double[] f = sonde(method, s);
        smape += Accuracy.smape(s.test(), f);
        mase += Accuracy.mase(s.train(), s.m(), s.test(), f);
        count++;
      }
      smape /= count;
      mase /= count;
      assertEquals(Double.parseDouble(row[1]), smape, 0.3, method + " sMAPE");
      assertEquals(Double.parseDouble(row[2]), mase, 0.3, method + " MASE");
    }
  }
}
