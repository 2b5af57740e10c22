package dev.sonde.forecast;

/**
 * STL, seasonal-trend decomposition by loess (Cleveland, Cleveland, McRae and Terpenning, 1990),
 * without the robustness loop: two inner passes of cycle-subseries smoothing, a low-pass filter and
 * trend smoothing, with the spans the paper recommends.
 */
final class Stl {
  private static final int INNER_PASSES = 2;

  /** The seasonal smoother's span (odd, at least 7), as R's stlf uses. */
  private static final int SEASONAL_SPAN = 13;

  private Stl() {}

  /** The seasonal component of {@code y} at period {@code m}. */
  static double[] seasonal(double[] y, int m) {
    int n = y.length;
    int ns = SEASONAL_SPAN;
    int nl = odd(m);
    int nt = odd((int) Math.ceil(1.5 * m / (1 - 1.5 / ns)));
    double[] trend = new double[n];
    double[] season = new double[n];
    for (int pass = 0; pass < INNER_PASSES; pass++) {
      double[] detrended = new double[n];
      for (int t = 0; t < n; t++) {
        detrended[t] = y[t] - trend[t];
      }
      // cycle-subseries smoothing, each subseries extended one period at both ends
      double[] cycle = new double[n + 2 * m];
      for (int k = 0; k < m; k++) {
        int count = (n - k + m - 1) / m;
        double[] sub = new double[count];
        for (int j = 0; j < count; j++) {
          sub[j] = detrended[k + j * m];
        }
        for (int j = -1; j <= count; j++) {
          int at = k + (j + 1) * m;
          if (at < cycle.length) {
            cycle[at] = loess(sub, ns, j);
          }
        }
      }
      // low-pass: moving averages of m, m and 3, then loess of span nl
      double[] low = movingAverage(movingAverage(movingAverage(cycle, m), m), 3);
      double[] lowSmoothed = new double[n];
      for (int t = 0; t < n; t++) {
        lowSmoothed[t] = loess(low, nl, t);
      }
      double[] adjusted = new double[n];
      for (int t = 0; t < n; t++) {
        season[t] = cycle[t + m] - lowSmoothed[t];
        adjusted[t] = y[t] - season[t];
      }
      for (int t = 0; t < n; t++) {
        trend[t] = loess(adjusted, nt, t);
      }
    }
    return season;
  }

  private static int odd(int v) {
    return v % 2 == 0 ? v + 1 : v;
  }

  private static double[] movingAverage(double[] x, int window) {
    double[] out = new double[x.length - window + 1];
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      sum += x[i];
      if (i >= window) {
        sum -= x[i - window];
      }
      if (i >= window - 1) {
        out[i - window + 1] = sum / window;
      }
    }
    return out;
  }

  /**
   * Local linear regression of {@code values} (at positions 0..n-1) with tricube weights over the
   * {@code span} nearest points, evaluated at position {@code at} (which may lie outside).
   */
  static double loess(double[] values, int span, double at) {
    int n = values.length;
    if (n == 1) {
      return values[0];
    }
    int q = Math.min(span, n);
    int left = (int) Math.max(0, Math.min(n - q, Math.round(at - (q - 1) / 2.0)));
    int right = left + q - 1;
    double reach = Math.max(at - left, right - at);
    if (span > n) {
      reach += (span - n) / 2.0;
    }
    double sw = 0;
    double swx = 0;
    double swy = 0;
    double swxx = 0;
    double swxy = 0;
    for (int i = left; i <= right; i++) {
      double d = Math.abs(i - at) / (reach * 1.000001 + 1e-12);
      double w = d >= 1 ? 0 : Math.pow(1 - d * d * d, 3);
      sw += w;
      swx += w * i;
      swy += w * values[i];
      swxx += w * i * i;
      swxy += w * i * values[i];
    }
    if (sw == 0) {
      return values[(int) Math.max(0, Math.min(n - 1, Math.round(at)))];
    }
    double meanX = swx / sw;
    double meanY = swy / sw;
    double varX = swxx / sw - meanX * meanX;
    double slope = varX <= 1e-12 ? 0 : (swxy / sw - meanX * meanY) / varX;
    return meanY + slope * (at - meanX);
  }
}
