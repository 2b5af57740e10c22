package dev.sonde.forecast;

/**
 * Exponential smoothing in its state-space form (Hyndman et al., "Forecasting with Exponential
 * Smoothing"), fitted like R's {@code ets}: smoothing parameters and initial states by maximum
 * likelihood within R's usual bounds (alpha in [1e-4, 0.9999], beta below alpha, gamma below 1 -
 * alpha, damping phi in [0.8, 0.98]). Seasonal starting states come from classical decomposition.
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
    double[] start = new double[k + 1];
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
    Layout layout = new Layout(iBeta, iGamma, iPhi, iLevel, iTrend);
    double[] best =
        NelderMead.minimise(p -> run(y, p, layout, season).cost(), start, MAX_EVALUATIONS);
    Run run = run(y, best, layout, season);
    int parameters = start.length + (form.seasonal ? period - 1 : 0);
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
  private record Layout(int beta, int gamma, int phi, int level, int trend) {}

  private record Run(double cost, double sse, double level, double trend, double[] season) {}

  /** R's usual bounds: each in its range, beta below alpha, gamma below 1 - alpha. */
  private static boolean admissible(double[] p, Layout at) {
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
    return at.phi() < 0 || (p[at.phi()] >= PHI_LOW && p[at.phi()] <= PHI_HIGH);
  }

  private Run run(double[] y, double[] p, Layout at, double[] initialSeason) {
    double level = p[at.level()];
    double trend = at.trend() >= 0 ? p[at.trend()] : 0;
    if (!admissible(p, at)) {
      return new Run(
          Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, level, trend, initialSeason);
    }
    double alpha = p[0];
    double beta = at.beta() >= 0 ? p[at.beta()] : 0;
    double gamma = at.gamma() >= 0 ? p[at.gamma()] : 0;
    double phi = at.phi() >= 0 ? p[at.phi()] : 1;
    double[] season = initialSeason.clone();
    int period = season.length;
    boolean mult = form.multiplicative();
    double sse = 0;
    double logSum = 0;
    for (int t = 0; t < y.length; t++) {
      double base = level + phi * trend;
      double s = season[t % period];
      double fitted = mult ? base * s : base + s;
      if (mult && (fitted <= 0 || base <= 0)) {
        return new Run(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, level, trend, season);
      }
      double error = mult ? (y[t] - fitted) / fitted : y[t] - fitted;
      sse += error * error;
      if (mult) {
        logSum += Math.log(Math.abs(fitted));
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
    double cost = y.length * Math.log(Math.max(sse, 1e-300)) + 2 * logSum;
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
