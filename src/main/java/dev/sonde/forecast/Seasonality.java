package dev.sonde.forecast;

/**
 * Seasonality as the M4 benchmarks and R's {@code thetaf} treat it: a 90% autocorrelation test at
 * the seasonal lag, and classical decomposition (multiplicative for positive data, additive
 * otherwise) to take the seasonal pattern out and put it back.
 */
final class Seasonality {
  private final int period;
  private final double[] indices;
  private final boolean multiplicative;

  private Seasonality(int period, double[] indices, boolean multiplicative) {
    this.period = period;
    this.indices = indices;
    this.multiplicative = multiplicative;
  }

  /** No seasonal pattern: adjusting changes nothing. */
  static Seasonality none() {
    return new Seasonality(1, new double[] {1}, true);
  }

  /** The series' seasonality at period {@code m}, or none when the test says there is none. */
  static Seasonality detect(double[] y, int m) {
    if (!isSeasonal(y, m)) {
      return none();
    }
    boolean positive = true;
    for (double v : y) {
      positive &= v > 0;
    }
    return new Seasonality(m, decompose(y, m, positive), positive);
  }

  boolean present() {
    return period > 1;
  }

  int period() {
    return period;
  }

  /** The seasonal index at position {@code t} (0 is the series' first point). */
  double index(int t) {
    return indices[Math.floorMod(t, period)];
  }

  double[] adjust(double[] y) {
    double[] out = new double[y.length];
    for (int t = 0; t < y.length; t++) {
      out[t] = multiplicative ? y[t] / index(t) : y[t] - index(t);
    }
    return out;
  }

  /** Puts the pattern back on values that continue a series of length {@code n}. */
  double[] restore(double[] values, int n) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = multiplicative ? values[i] * index(n + i) : values[i] + index(n + i);
    }
    return out;
  }

  /** Scales a spread that continues a series of length {@code n} (additive: unchanged). */
  double[] restoreSpread(double[] spread, int n) {
    if (!multiplicative) {
      return spread.clone();
    }
    double[] out = new double[spread.length];
    for (int i = 0; i < spread.length; i++) {
      out[i] = spread[i] * index(n + i);
    }
    return out;
  }

  /** The M4 test: |r_m| above 1.645 times its standard error under the lower lags. */
  static boolean isSeasonal(double[] y, int m) {
    if (m <= 1 || y.length < 3 * m) {
      return false;
    }
    double[] r = acf(y, m);
    double sum = 0;
    for (int k = 1; k < m; k++) {
      sum += r[k] * r[k];
    }
    double limit = 1.645 * Math.sqrt((1 + 2 * sum) / y.length);
    return Math.abs(r[m]) > limit;
  }

  /** Autocorrelations r_0..r_maxLag. */
  static double[] acf(double[] y, int maxLag) {
    int n = y.length;
    double mean = 0;
    for (double v : y) {
      mean += v;
    }
    mean /= n;
    double denominator = 0;
    for (double v : y) {
      denominator += (v - mean) * (v - mean);
    }
    double[] r = new double[maxLag + 1];
    for (int k = 0; k <= maxLag; k++) {
      double sum = 0;
      for (int t = 0; t + k < n; t++) {
        sum += (y[t] - mean) * (y[t + k] - mean);
      }
      r[k] = denominator == 0 ? 0 : sum / denominator;
    }
    return r;
  }

  /** R's {@code decompose}: centred moving average, per-position mean of the detrended values. */
  static double[] decompose(double[] y, int m, boolean multiplicative) {
    int n = y.length;
    double[] sums = new double[m];
    int[] counts = new int[m];
    int half = m / 2;
    for (int t = half; t < n - half; t++) {
      double trend;
      if (m % 2 == 0) {
        double s = 0.5 * (y[t - half] + y[t + half]);
        for (int k = -half + 1; k < half; k++) {
          s += y[t + k];
        }
        trend = s / m;
      } else {
        double s = 0;
        for (int k = -half; k <= half; k++) {
          s += y[t + k];
        }
        trend = s / m;
      }
      sums[t % m] += multiplicative ? y[t] / trend : y[t] - trend;
      counts[t % m]++;
    }
    double[] figure = new double[m];
    double mean = 0;
    for (int i = 0; i < m; i++) {
      figure[i] = counts[i] == 0 ? (multiplicative ? 1 : 0) : sums[i] / counts[i];
      mean += figure[i] / m;
    }
    for (int i = 0; i < m; i++) {
      figure[i] = multiplicative ? figure[i] / mean : figure[i] - mean;
    }
    return figure;
  }
}
