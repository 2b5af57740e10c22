package dev.sonde.forecast;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fits every model that suits a series, ranks them by a rolling-origin backtest (MASE, sMAPE
 * shown), and forecasts with the choice: by default a combination of the leading models, or one
 * named model, or the model at a leaderboard rank. Models are refitted on the whole series for the
 * forecast; bands are analytic where the model has them, else from the backtest's errors per step.
 */
public final class Forecaster {
  public static final String AUTO = "auto";
  private static final double Z80 = 1.2815515655446004;
  private static final double Z95 = 1.959963984540054;
  private static final int WINDOWS = 3;

  private static final List<Model> MODELS =
      List.of(
          new Naive(false),
          new Naive(true),
          new Smoothing(Smoothing.Form.SES),
          new Smoothing(Smoothing.Form.HOLT),
          new Smoothing(Smoothing.Form.DAMPED),
          new Smoothing(Smoothing.Form.HOLT_WINTERS),
          new Smoothing(Smoothing.Form.HOLT_WINTERS_MULT),
          new Theta(),
          new Regression(Regression.Form.LINEAR),
          new Regression(Regression.Form.QUADRATIC),
          new Autoregression(),
          new Regression(Regression.Form.HARMONIC),
          new Regression(Regression.Form.PROPHET),
          new StlEts());

  /** One leaderboard row: mean MASE and sMAPE over the backtest windows. */
  public record Score(String method, String label, double mase, double smape, int windows) {}

  /** A forecast with its 80% and 95% bands, and its forecast of the last held-out window. */
  public record Curve(
      String method,
      double[] mean,
      double[] lo80,
      double[] hi80,
      double[] lo95,
      double[] hi95,
      double[] backtest) {}

  /** What was asked: {@code auto}, a method id, or a leaderboard rank (1-based). */
  public record Choice(String method, int rank) {
    public static Choice auto() {
      return new Choice(AUTO, 0);
    }

    public static Choice method(String id) {
      return new Choice(id, 0);
    }

    public static Choice rank(int rank) {
      return new Choice(null, rank);
    }
  }

  /**
   * The outcome: the seasonal period found (1: none), the leaderboard, the chosen curve, the
   * members of a combination (empty for one model), every model's curve, and where the last
   * backtest window starts.
   */
  public record Result(
      int period,
      List<Score> leaderboard,
      String chosen,
      List<String> members,
      Curve forecast,
      Map<String, Curve> curves,
      int backtestStart) {}

  /** The method ids callers may name. */
  public static List<String> methods() {
    return MODELS.stream().map(Model::id).toList();
  }

  /**
   * Forecasts {@code h} steps of {@code y} at seasonal period {@code m} (1: none). Run by a call's
   * {@link Call#blocking} work, it stops between models when the call stops.
   *
   * @throws CallerException when the series is too short or the method does not apply
   */
  public Result forecast(double[] y, int m, int h, Choice choice, Call.Steps steps) {
    int n = y.length;
    if (h < 1) {
      throw new CallerException("horizon must be at least 1 bucket");
    }
    List<Integer> origins = origins(n, h);
    if (origins.isEmpty()) {
      throw new CallerException(
          "the series has "
              + n
              + " points, too few to backtest a "
              + h
              + "-step forecast; ask for a shorter horizon, a finer rollup or a longer time range");
    }
    int period = m > 1 && n >= 3 * m ? m : 1;
    List<Model> candidates = new ArrayList<>();
    for (Model model : MODELS) {
      if (model.fits(origins.get(0), period)) {
        candidates.add(model);
      }
    }
    if (choice.method() != null && !choice.method().equals(AUTO)) {
      String id = choice.method();
      if (candidates.stream().noneMatch(c -> c.id().equals(id))) {
        throw new CallerException(
            methods().contains(id)
                ? id
                    + " does not apply to this series (too short or not seasonal); these do: "
                    + candidates.stream().map(Model::id).toList()
                : "unknown method " + Quote.of(id) + "; use auto or one of " + methods());
      }
    }
    steps.step(
        "backtest",
        candidates.size()
            + " models over "
            + origins.size()
            + " rolling windows of "
            + h
            + " buckets");
    Map<String, double[][]> windowForecasts = new LinkedHashMap<>();
    for (Model model : candidates) {
      double[][] perWindow = new double[origins.size()][];
      for (int w = 0; w < origins.size(); w++) {
        Call.checkpointHere();
        int origin = origins.get(w);
        perWindow[w] = run(model, slice(y, 0, origin), period, h).mean();
      }
      windowForecasts.put(model.id(), perWindow);
    }
    List<Score> leaderboard = new ArrayList<>();
    for (Model model : candidates) {
      leaderboard.add(
          score(model.id(), model.label(), windowForecasts.get(model.id()), y, origins, period, h));
    }
    leaderboard.sort(Comparator.comparingDouble(Score::mase).thenComparing(Score::method));
    steps.step(
        "rank",
        String.format(
            Locale.ROOT,
            "leader %s (MASE %.3f, sMAPE %.2f%%)",
            leaderboard.get(0).method(),
            leaderboard.get(0).mase(),
            leaderboard.get(0).smape()));

    steps.step("fit", "refitting " + candidates.size() + " models on all " + n + " points");
    Map<String, Curve> curves = new LinkedHashMap<>();
    for (Model model : candidates) {
      Call.checkpointHere();
      Prediction p = run(model, y, period, h);
      double[][] windows = windowForecasts.get(model.id());
      curves.put(model.id(), curve(model.id(), p, windows, y, origins, h));
    }

    List<String> members = List.of();
    String chosen;
    Curve forecast;
    if (choice.rank() > 0) {
      if (choice.rank() > leaderboard.size()) {
        throw new CallerException(
            "rank "
                + choice.rank()
                + " is past the leaderboard's "
                + leaderboard.size()
                + " models");
      }
      chosen = leaderboard.get(choice.rank() - 1).method();
      forecast = curves.get(chosen);
    } else if (choice.method() == null || choice.method().equals(AUTO)) {
      Combination combination = Combination.of(leaderboard, curves.keySet());
      members = combination.members();
      chosen = AUTO;
      double[][] windows = new double[origins.size()][];
      for (int w = 0; w < origins.size(); w++) {
        int window = w;
        windows[w] = combination.combine(id -> windowForecasts.get(id)[window]);
      }
      double[] mean = combination.combine(id -> curves.get(id).mean());
      forecast = curve(AUTO, new Prediction(mean, null), windows, y, origins, h);
    } else {
      chosen = choice.method();
      forecast = curves.get(chosen);
    }
    return new Result(
        period, leaderboard, chosen, members, forecast, curves, origins.get(origins.size() - 1));
  }

  /**
   * Backtest origins: three non-overlapping windows when the series is long enough, else three
   * overlapping ones a step apart; none when even those leave too little to fit on.
   */
  static List<Integer> origins(int n, int h) {
    int minimum = Math.max(6, h);
    List<Integer> origins = new ArrayList<>();
    if (n - WINDOWS * h >= minimum) {
      for (int w = WINDOWS; w >= 1; w--) {
        origins.add(n - w * h);
      }
    } else if (n - h - (WINDOWS - 1) >= Math.min(minimum, 6)) {
      for (int w = WINDOWS - 1; w >= 0; w--) {
        origins.add(n - h - w);
      }
    }
    return origins;
  }

  static Prediction run(Model model, double[] y, int period, int h) {
    Seasonality season = model.fitsAdjusted() ? Seasonality.detect(y, period) : Seasonality.none();
    if (!season.present()) {
      return model.predict(y, period, h);
    }
    Prediction p = model.predict(season.adjust(y), period, h);
    return new Prediction(
        season.restore(p.mean(), y.length),
        p.sd() == null ? null : season.restoreSpread(p.sd(), y.length));
  }

  private static Score score(
      String id,
      String label,
      double[][] windows,
      double[] y,
      List<Integer> origins,
      int period,
      int h) {
    double mase = 0;
    double smape = 0;
    for (int w = 0; w < origins.size(); w++) {
      int origin = origins.get(w);
      double[] actual = slice(y, origin, origin + h);
      mase += Accuracy.mase(slice(y, 0, origin), period, actual, windows[w]);
      smape += Accuracy.smape(actual, windows[w]);
    }
    return new Score(id, label, mase / origins.size(), smape / origins.size(), origins.size());
  }

  private static Curve curve(
      String id, Prediction p, double[][] windows, double[] y, List<Integer> origins, int h) {
    double[] spread = p.sd();
    if (spread == null) {
      spread = new double[h];
      for (int j = 0; j < h; j++) {
        double sum = 0;
        for (int w = 0; w < origins.size(); w++) {
          double e = y[origins.get(w) + j] - windows[w][j];
          sum += e * e;
        }
        spread[j] = Math.sqrt(sum / origins.size());
      }
      // errors of a few windows are noisy: a band never narrows with the horizon
      for (int j = 1; j < h; j++) {
        spread[j] = Math.max(spread[j], spread[j - 1]);
      }
    }
    double[] lo80 = new double[h];
    double[] hi80 = new double[h];
    double[] lo95 = new double[h];
    double[] hi95 = new double[h];
    for (int j = 0; j < h; j++) {
      lo80[j] = p.mean()[j] - Z80 * spread[j];
      hi80[j] = p.mean()[j] + Z80 * spread[j];
      lo95[j] = p.mean()[j] - Z95 * spread[j];
      hi95[j] = p.mean()[j] + Z95 * spread[j];
    }
    return new Curve(id, p.mean(), lo80, hi80, lo95, hi95, windows[windows.length - 1]);
  }

  static double[] slice(double[] y, int from, int to) {
    double[] out = new double[to - from];
    System.arraycopy(y, from, out, 0, to - from);
    return out;
  }
}
