package dev.sonde.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ForecasterTest {
  private final Forecaster forecaster = new Forecaster();

  /**
   * Hourly sensor-like data: a sharp daily duty cycle whose shape drifts from day to day (each
   * hour's level walks), with little measurement noise.
   */
  private static double[] dutyCycle(int days, long seed) {
    Random random = new Random(seed);
    double[] profile = new double[24];
    for (int hour = 0; hour < 24; hour++) {
      profile[hour] = hour >= 8 && hour < 18 ? 80 : 20;
    }
    double[] y = new double[days * 24];
    for (int t = 0; t < y.length; t++) {
      int hour = t % 24;
      profile[hour] += random.nextGaussian() * 3;
      y[t] = profile[hour] + random.nextGaussian() * 0.5;
    }
    return y;
  }

  private static Map<String, Double> mase(Forecaster.Result r) {
    return r.leaderboard().stream()
        .collect(Collectors.toMap(Forecaster.Score::method, Forecaster.Score::mase));
  }

  @Test
  void seasonalNaiveBeatsSmoothingAndThetaOnHourlySensorData() {
    Forecaster.Result r =
        forecaster.forecast(dutyCycle(21, 1), 24, 24, Forecaster.Choice.auto(), Call.Steps.NONE);
    Map<String, Double> mase = mase(r);
    assertEquals(24, r.period());
    assertTrue(mase.get("snaive") < mase.get("ses"), mase.toString());
    assertTrue(mase.get("snaive") < mase.get("theta"), mase.toString());
    assertTrue(mase.get("snaive") < mase.get("damped"), mase.toString());
    assertTrue(mase.get("snaive") < mase.get("naive"), mase.toString());
  }

  @Test
  void theLeaderboardIsSortedByBacktestMaseAndTheForecastContinuesTheSeason() {
    double[] y = dutyCycle(21, 2);
    Forecaster.Result r = forecaster.forecast(y, 24, 24, Forecaster.Choice.auto(), Call.Steps.NONE);
    for (int i = 1; i < r.leaderboard().size(); i++) {
      assertTrue(r.leaderboard().get(i - 1).mase() <= r.leaderboard().get(i).mase());
    }
    assertEquals(3, r.leaderboard().get(0).windows());
    assertEquals("auto", r.chosen());
    assertTrue(r.members().containsAll(List.of("theta", "damped")), r.members().toString());
    // working hours forecast high, night low
    assertTrue(r.forecast().mean()[10] > 60, () -> "10:00 " + r.forecast().mean()[10]);
    assertTrue(r.forecast().mean()[2] < 35, () -> "02:00 " + r.forecast().mean()[2]);
  }

  @Test
  void holtWintersFollowsACycleLongerThanRsLimitWithTheDecompositionsSeasonalStates() {
    // minute buckets of an hour: m = 60, above the 24 up to which the seasonal states are optimised
    int m = 60;
    for (Smoothing.Form form :
        List.of(Smoothing.Form.HOLT_WINTERS, Smoothing.Form.HOLT_WINTERS_MULT)) {
      Random random = new Random(7);
      double[] truth = new double[7 * m];
      for (int t = 0; t < truth.length; t++) {
        double level = 100 + 0.02 * t;
        double cycle = Math.sin(2 * Math.PI * t / m);
        truth[t] = form.multiplicative() ? level * (1 + 0.2 * cycle) : level + 20 * cycle;
      }
      double[] y = new double[6 * m];
      for (int t = 0; t < y.length; t++) {
        y[t] = truth[t] + random.nextGaussian() * 0.3;
      }
      double[] f = new Smoothing(form).predict(y, m, m).mean();
      double error = 0;
      for (int j = 0; j < m; j++) {
        error += Math.abs(f[j] - truth[y.length + j]) / m;
      }
      assertTrue(error < 1.5, form + " mean absolute error " + error);
    }
  }

  @Test
  void aDecisiveBacktestGivesTheLeaderAloneInsteadOfTheCombination() {
    double[] y = new double[200];
    for (int t = 0; t < y.length; t++) {
      y[t] = 50 + 10 * Math.sin(t / 5.0);
    }
    Forecaster.Result r = forecaster.forecast(y, 1, 10, Forecaster.Choice.auto(), Call.Steps.NONE);
    String leader = r.leaderboard().get(0).method();
    assertEquals(List.of(leader), r.members());
    for (int j = 0; j < 10; j++) {
      assertEquals(50 + 10 * Math.sin((200 + j) / 5.0), r.forecast().mean()[j], 0.5);
    }
  }

  @Test
  void bandsNestAroundTheForecastAndWidenWithTheHorizon() {
    Random random = new Random(3);
    double[] y = new double[120];
    for (int t = 0; t < y.length; t++) {
      y[t] = 100 + 0.5 * t + random.nextGaussian() * 3;
    }
    Forecaster.Result r =
        forecaster.forecast(y, 1, 12, Forecaster.Choice.method("ses"), Call.Steps.NONE);
    Forecaster.Curve c = r.forecast();
    for (int j = 0; j < 12; j++) {
      assertTrue(c.lo95()[j] < c.lo80()[j] && c.lo80()[j] < c.mean()[j]);
      assertTrue(c.mean()[j] < c.hi80()[j] && c.hi80()[j] < c.hi95()[j]);
    }
    assertTrue(c.hi95()[11] - c.lo95()[11] > c.hi95()[0] - c.lo95()[0]);
    for (Forecaster.Curve any : r.curves().values()) {
      assertEquals(12, any.mean().length);
      assertEquals(12, any.backtest().length);
      assertTrue(any.hi95()[0] >= any.mean()[0], any.method());
    }
  }

  @Test
  void regressionsContinueFromTheLastObservationWithoutAJump() {
    double[] y = new double[60];
    for (int t = 0; t < y.length; t++) {
      y[t] = 10 + 2.0 * t;
    }
    y[59] += 30; // the last point sits above the line: the forecast starts from it
    Forecaster.Result r =
        forecaster.forecast(y, 1, 5, Forecaster.Choice.method("linear"), Call.Steps.NONE);
    double slope = r.forecast().mean()[1] - r.forecast().mean()[0];
    assertEquals(y[59] + slope, r.forecast().mean()[0], 1e-6);
    assertEquals(2.0, slope, 0.1);
  }

  @Test
  void aRankGivesThatLeaderboardPositionsModel() {
    double[] y = dutyCycle(14, 4);
    Forecaster.Result r =
        forecaster.forecast(y, 24, 12, Forecaster.Choice.rank(2), Call.Steps.NONE);
    assertEquals(r.leaderboard().get(1).method(), r.chosen());
    assertEquals(List.of(), r.members());
  }

  @Test
  void unknownOrInapplicableMethodsAndShortSeriesAreRefusedWithWhatToChange() {
    double[] y = dutyCycle(14, 5);
    CallerException unknown =
        assertThrows(
            CallerException.class,
            () ->
                forecaster.forecast(y, 24, 12, Forecaster.Choice.method("arima"), Call.Steps.NONE));
    assertTrue(unknown.getMessage().contains("theta"), unknown.getMessage());
    double[] yearly = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    CallerException seasonal =
        assertThrows(
            CallerException.class,
            () ->
                forecaster.forecast(
                    yearly, 1, 2, Forecaster.Choice.method("holtwinters"), Call.Steps.NONE));
    assertTrue(seasonal.getMessage().contains("does not apply"), seasonal.getMessage());
    CallerException tooShort =
        assertThrows(
            CallerException.class,
            () ->
                forecaster.forecast(
                    new double[] {1, 2, 3, 4}, 1, 3, Forecaster.Choice.auto(), Call.Steps.NONE));
    assertTrue(tooShort.getMessage().contains("shorter horizon"), tooShort.getMessage());
  }

  @Test
  void stepsAreReportedInOrder() {
    List<String> seen = new java.util.ArrayList<>();
    forecaster.forecast(
        dutyCycle(14, 6), 24, 12, Forecaster.Choice.auto(), (step, message) -> seen.add(step));
    assertEquals(List.of("backtest", "rank", "fit"), seen);
  }
}
