package dev.sonde.forecast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The default forecast: equal thirds of Theta, the damped trend and the point-wise median of the
 * backtest's top five. Picking the single backtest winner loses to Theta on M3; the median keeps
 * what the leaderboard knows about this series while the two robust anchors shrink it toward the
 * combination that wins on average (measured on M3, see the README's forecast section). Only a
 * decisive backtest, where the leader's error is under a third of the better anchor's (a
 * deterministic cycle, say), gives the leader alone.
 */
record Combination(List<String> anchors, List<String> leaders) {
  static final List<String> ANCHORS = List.of("theta", "damped");
  private static final int LEADERS = 5;

  /** How far ahead of the anchors the leader must be to stand alone. */
  private static final double DECISIVE = 0.3;

  static Combination of(List<Forecaster.Score> leaderboard, Set<String> available) {
    List<String> anchors = ANCHORS.stream().filter(available::contains).toList();
    Forecaster.Score leader = leaderboard.get(0);
    double anchorMase =
        leaderboard.stream()
            .filter(s -> anchors.contains(s.method()))
            .mapToDouble(Forecaster.Score::mase)
            .min()
            .orElse(Double.MAX_VALUE);
    if (leader.mase() < DECISIVE * anchorMase) {
      return new Combination(List.of(), List.of(leader.method()));
    }
    List<String> leaders =
        leaderboard.stream().limit(LEADERS).map(Forecaster.Score::method).toList();
    return new Combination(anchors, leaders);
  }

  /** Every model the combination uses, anchors first. */
  List<String> members() {
    Set<String> members = new LinkedHashSet<>(anchors);
    members.addAll(leaders);
    return List.copyOf(members);
  }

  double[] combine(Function<String, double[]> forecastOf) {
    List<double[]> parts = new ArrayList<>();
    anchors.forEach(id -> parts.add(forecastOf.apply(id)));
    parts.add(median(leaders.stream().map(forecastOf).toList()));
    int h = parts.get(0).length;
    double[] out = new double[h];
    for (double[] part : parts) {
      for (int j = 0; j < h; j++) {
        out[j] += part[j] / parts.size();
      }
    }
    return out;
  }

  private static double[] median(List<double[]> forecasts) {
    int h = forecasts.get(0).length;
    double[] out = new double[h];
    double[] column = new double[forecasts.size()];
    for (int j = 0; j < h; j++) {
      for (int i = 0; i < column.length; i++) {
        column[i] = forecasts.get(i)[j];
      }
      Arrays.sort(column);
      int mid = column.length / 2;
      out[j] = column.length % 2 == 1 ? column[mid] : (column[mid - 1] + column[mid]) / 2;
    }
    return out;
  }
}
