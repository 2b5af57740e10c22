package dev.sonde.forecast;

import java.util.Arrays;

/**
 * Exponential smoothing in its state-space form (Hyndman et al., "Forecasting with Exponential
 * Smoothing"), fitted as R's {@code ses}, {@code holt} and {@code hw} fit it through {@code ets}:
 * smoothing parameters and every initial state (level, trend, m - 1 seasonal states) minimise the
 * one-step squared error ({@code opt.crit = "mse"}), within R's bounds (alpha in [1e-4, 0.9999],
 * beta below alpha, gamma below 1 - alpha, damping phi in [0.8, 0.98], and for seasonal models the
 * admissible region). Starting states come from classical decomposition and a line, as R's.
 */
final class Smoothing implements Model {
  enum Form {
    SES("ses", "Simple exponential smoothing (ETS A,N,N)", false, false, false),
    HOLT("holt", "Holt's linear trend (ETS A,A,N)", true, false, false),
    DAMPED("damped", "Damped trend (ETS A,Ad,N)", true, true, false),
    HOLT_WINTERS("holtwinters", "Holt-Winters additive (ETS A,A,A)", true, false, true),
    HOLT_WINTERS_MULT(
        "holtwinters_mult", "Holt-Winters multiplicative (ETS M,A,M)", true, false, true);

    final String id;
    final String label;
    final boolean trend;
    final boolean damped;
    final boolean seasonal;

    Form(String id, String label, boolean trend, boolean damped, boolean seasonal) {
      this.id = id;
      this.label = label;
      this.trend = trend;
      this.damped = damped;
      this.seasonal = seasonal;
    }

    boolean multiplicative() {
      return this == HOLT_WINTERS_MULT;
    }
  }

  private static final double LOW = 1e-4;
  private static final double HIGH = 0.9999;
  private static final double PHI_LOW = 0.8;
  private static final double PHI_HIGH = 0.98;

  /**
   * Above R's limit for seasonal ets (m = 24) the decomposition's seasonal states stay fixed and
   * only the smoothing parameters, level and trend are optimised: a simplex in hundreds of
   * dimensions would not move in 2,000 steps.
   */
  private static final int MAX_OPTIMISED_PERIOD = 24;

  /** R's ets default ({@code maxit = 2000}). */
  private static final int MAX_EVALUATIONS = 2000;

  private final Form form;

  Smoothing(Form form) {
    this.form = form;
  }

  @Override
  public String id() {
    return form.id;
  }

  @Override
  public String label() {
    return form.label;
  }

  @Override
  public boolean fitsAdjusted() {
    return !form.seasonal;
  }

  /** How many parameters the fit estimates: smoothing, damping and initial states. */
  int parameters() {
    return 2 + (form.trend ? 2 : 0) + (form.damped ? 1 : 0) + (form.seasonal ? 1 : 0);
  }

  @Override
  public boolean fits(int n, int m) {
    if (form.seasonal) {
      return m > 1 && n >= 2 * m + 2;
    }
    return n >= (form.trend ? 4 : 2);
  }

  /** A fitted model: its parameters, the final states and the one-step errors' variance. */
  record Fit(
      double alpha,
      double beta,
      double gamma,
      double phi,
      double level,
      double trend,
      double[] season,
      int n,
      double sigma2) {}

  @Override
  public Prediction predict(double[] y, int m, int h) {
    return forecast(fit(y, m), h);
  }

  Prediction forecast(Fit fit, int h) {
    int period = fit.season().length;
    double[] mean = new double[h];
    double[] sd = form.multiplicative() ? null : new double[h];
    double phiSum = 0;
    double phiPower = 1;
    double sumC2 = 0;
    for (int j = 1; j <= h; j++) {
      phiPower *= fit.phi();
      phiSum += form.trend ? phiPower : 0;
      double base = fit.level() + phiSum * fit.trend();
      double s = fit.season()[Math.floorMod(fit.n() + j - 1, period)];
      double value = form.multiplicative() ? base * s : base + s;
      mean[j - 1] = value;
      if (sd != null) {
        sd[j - 1] = Math.sqrt(fit.sigma2() * (1 + sumC2));
        double c =
            fit.alpha()
                + (form.trend ? fit.beta() * phiSum : 0)
                + (form.seasonal && j % period == 0 ? fit.gamma() : 0);
        sumC2 += c * c;
      }
    }
    return new Prediction(mean, sd);
  }

  /**
   * Fits as R's {@code ets} does: its starting values ({@code initparam}, {@code initstate}), its
   * bounds, and its Nelder-Mead on the raw data; points outside the bounds cost infinity.
   */
  Fit fit(double[] y, int m) {
    int period = form.seasonal ? m : 1;
    double[] season =
        form.seasonal
            ? Seasonality.decompose(y, m, form.multiplicative())
            : new double[] {form.multiplicative() ? 1 : 0};
    double[] adjusted = new double[y.length];
    for (int t = 0; t < y.length; t++) {
      double s = season[t % period];
      adjusted[t] = form.multiplicative() ? y[t] / s : y[t] - s;
    }
    int head = Math.min(Math.max(10, 2 * period), y.length);
    double[] line = leastSquaresLine(adjusted, head);

    // parameters: alpha, beta, gamma, phi, l0, b0 (only those the form uses)
    int k = 0;
    int iBeta = form.trend ? ++k : -1;
    int iGamma = form.seasonal ? ++k : -1;
    int iPhi = form.damped ? ++k : -1;
    int iLevel = ++k;
    int iTrend = form.trend ? ++k : -1;
    // the season's first m - 1 states; the last follows from their sum, as in R
    boolean seasonOptimised = form.seasonal && period <= MAX_OPTIMISED_PERIOD;
    int iSeason = seasonOptimised ? k + 1 : -1;
    double[] start = new double[k + 1 + (seasonOptimised ? period - 1 : 0)];
    start[0] = LOW + 0.2 * (HIGH - LOW) / period;
    if (iBeta >= 0) {
      start[iBeta] = LOW + 0.1 * (start[0] - LOW);
    }
    if (iGamma >= 0) {
      start[iGamma] = LOW + 0.05 * (1 - start[0] - LOW);
    }
    if (iPhi >= 0) {
      start[iPhi] = PHI_LOW + 0.99 * (PHI_HIGH - PHI_LOW);
    }
    // the state before the first point: the line through the first points, one step back
    start[iLevel] = form.trend ? line[0] - line[1] : mean(adjusted, head);
    if (iTrend >= 0) {
      start[iTrend] = line[1];
    }
    for (int i = 1; i < period && seasonOptimised; i++) {
      start[iSeason + i - 1] = season[i];
    }
    Layout layout = new Layout(iBeta, iGamma, iPhi, iLevel, iTrend, iSeason);
    double[] best =
        NelderMead.minimise(p -> run(y, p, layout, season).cost(), start, MAX_EVALUATIONS);
    Run run = run(y, best, layout, season);
    int parameters = start.length + (form.seasonal && !seasonOptimised ? period - 1 : 0);
    double sigma2 = run.sse() / Math.max(1, y.length - parameters);
    return new Fit(
        best[0],
        iBeta >= 0 ? best[iBeta] : 0,
        iGamma >= 0 ? best[iGamma] : 0,
        iPhi >= 0 ? best[iPhi] : 1,
        run.level(),
        run.trend(),
        run.season(),
        y.length,
        sigma2);
  }

  /** Where each parameter sits in the optimiser's vector (-1: the form has none). */
  private record Layout(int beta, int gamma, int phi, int level, int trend, int season) {}

  private record Run(double cost, double sse, double level, double trend, double[] season) {}

  /** R's usual bounds: each in its range, beta below alpha, gamma below 1 - alpha. */
  private static boolean admissible(double[] p, Layout at, int period) {
    double alpha = p[0];
    if (alpha < LOW || alpha > HIGH) {
      return false;
    }
    if (at.beta() >= 0 && (p[at.beta()] < LOW || p[at.beta()] > alpha)) {
      return false;
    }
    if (at.gamma() >= 0 && (p[at.gamma()] < LOW || p[at.gamma()] > 1 - alpha)) {
      return false;
    }
    if (at.phi() >= 0 && (p[at.phi()] < PHI_LOW || p[at.phi()] > PHI_HIGH)) {
      return false;
    }
    return at.season() < 0 || stable(p, at, period);
  }

  /**
   * R's admissibility test for seasonal models (bounds "both"): the roots of phi(1-alpha-gamma) +
   * (alpha+beta-alpha phi+gamma-1) z + (alpha+beta-alpha phi)(z^2..z^(m-1)) + (alpha+beta-phi) z^m
   * + z^(m+1) lie in the unit circle, checked by the Schur-Cohn recursion instead of root finding.
   */
  private static boolean stable(double[] p, Layout at, int period) {
    double alpha = p[0];
    double beta = at.beta() >= 0 ? p[at.beta()] : 0;
    double gamma = p[at.gamma()];
    double phi = at.phi() >= 0 ? p[at.phi()] : 1;
    double[] a = new double[period + 2];
    a[0] = phi * (1 - alpha - gamma);
    a[1] = alpha + beta - alpha * phi + gamma - 1;
    for (int i = 2; i < period; i++) {
      a[i] = alpha + beta - alpha * phi;
    }
    a[period] = alpha + beta - phi;
    a[period + 1] = 1;
    for (int degree = period + 1; degree > 0; degree--) {
      double k = a[0] / a[degree];
      if (Math.abs(k) >= 1) {
        return false;
      }
      // (A(z) - k A*(z)) / z keeps the roots' side of the circle and lowers the degree by one
      double[] next = new double[degree];
      for (int i = 0; i < degree; i++) {
        next[i] = a[i + 1] - k * a[degree - 1 - i];
      }
      a = next;
    }
    return true;
  }

  /** The initial season: m - 1 states from the optimiser and one making them sum to m (or 0). */
  private double[] initialSeason(double[] p, Layout at, double[] decomposed) {
    int period = decomposed.length;
    if (at.season() < 0) {
      return decomposed.clone();
    }
    double[] season = new double[period];
    double sum = 0;
    for (int i = 1; i < period; i++) {
      season[i] = p[at.season() + i - 1];
      sum += season[i];
    }
    season[0] = (form.multiplicative() ? period : 0) - sum;
    return season;
  }

  private Run run(double[] y, double[] p, Layout at, double[] decomposed) {
    int period = decomposed.length;
    double level = p[at.level()];
    double trend = at.trend() >= 0 ? p[at.trend()] : 0;
    double[] season = initialSeason(p, at, decomposed);
    if (!admissible(p, at, period)
        || (form.multiplicative() && Arrays.stream(season).anyMatch(s -> s < 0))) {
      return new Run(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, level, trend, season);
    }
    double alpha = p[0];
    double beta = at.beta() >= 0 ? p[at.beta()] : 0;
    double gamma = at.gamma() >= 0 ? p[at.gamma()] : 0;
    double phi = at.phi() >= 0 ? p[at.phi()] : 1;
    boolean mult = form.multiplicative();
    double sse = 0;
    double rawSse = 0;
    for (int t = 0; t < y.length; t++) {
      double base = level + phi * trend;
      double s = season[t % period];
      double fitted = mult ? base * s : base + s;
      // R lets the states cross zero and only keeps the relative error finite
      double error =
          mult
              ? (y[t] - fitted) / (Math.abs(fitted) < 1e-10 ? fitted + 1e-10 : fitted)
              : y[t] - fitted;
      sse += error * error;
      rawSse += (y[t] - fitted) * (y[t] - fitted);
      if (mult) {
        level = base * (1 + alpha * error);
        trend = phi * trend + beta * base * error;
        season[t % period] = s * (1 + gamma * error);
      } else {
        level = base + alpha * error;
        trend = phi * trend + beta * error;
        season[t % period] = s + gamma * error;
      }
    }
    if (!Double.isFinite(sse)) {
      return new Run(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, level, trend, season);
    }
    double cost = rawSse / y.length;
    return new Run(cost, sse, level, trend, season);
  }

  private static double mean(double[] y, int count) {
    double sum = 0;
    for (int t = 0; t < count; t++) {
      sum += y[t];
    }
    return sum / count;
  }

  /** Intercept (at the first point) and slope of the least-squares line through y[0..count). */
  static double[] leastSquaresLine(double[] y, int count) {
    double meanT = (count - 1) / 2.0;
    double meanY = mean(y, count);
    double num = 0;
    double den = 0;
    for (int t = 0; t < count; t++) {
      num += (t - meanT) * (y[t] - meanY);
      den += (t - meanT) * (t - meanT);
    }
    double slope = den == 0 ? 0 : num / den;
    return new double[] {meanY - slope * meanT, slope};
  }
}
