package dev.sonde.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class StlTest {
  /** Hourly load: a rising trend, a daily shape (not a sinusoid) and noise. */
  static double[] load(int days, double[] truth) {
    Random random = new Random(11);
    double[] y = new double[days * 24];
    for (int t = 0; t < y.length; t++) {
      int hour = t % 24;
      double shape = hour >= 8 && hour < 18 ? 30 : -20;
      if (hour == 12) {
        shape = 5;
      }
      truth[t % 24] = shape;
      y[t] = 100 + 0.05 * t + shape + random.nextGaussian() * 2;
    }
    return y;
  }

  @Test
  void theSeasonalComponentRecoversTheDailyShape() {
    double[] truth = new double[24];
    double[] y = load(20, truth);
    double mean = 0;
    for (double v : truth) {
      mean += v / 24;
    }
    double[] season = Stl.seasonal(y, 24);
    // the middle days, away from the ends, match the shape (centred) within the noise
    for (int t = 5 * 24; t < 15 * 24; t++) {
      assertEquals(truth[t % 24] - mean, season[t], 2.5, "hour " + t % 24);
    }
  }

  @Test
  void stlEtsForecastsTheShapeAndTheTrendAhead() {
    double[] truth = new double[24];
    double[] y = load(21, truth);
    double[] train = Forecaster.slice(y, 0, 20 * 24);
    double[] actual = Forecaster.slice(y, 20 * 24, 21 * 24);
    double[] forecast = new StlEts().predict(train, 24, 24).mean();
    double mase = Accuracy.mase(train, 24, actual, forecast);
    double naive = Accuracy.mase(train, 24, actual, new Naive(true).predict(train, 24, 24).mean());
    assertTrue(mase < naive, "STL+ETS " + mase + " against seasonal naive " + naive);
    assertTrue(mase < 0.8, "MASE " + mase);
  }

  @Test
  void loessFitsALineExactlyAndExtrapolatesIt() {
    double[] line = new double[30];
    for (int i = 0; i < line.length; i++) {
      line[i] = 3 + 2 * i;
    }
    assertEquals(3 + 2 * 10, Stl.loess(line, 7, 10), 1e-9);
    assertEquals(3 + 2 * -1, Stl.loess(line, 7, -1), 1e-9);
    assertEquals(3 + 2 * 30, Stl.loess(line, 7, 30), 1e-9);
  }
}
