package dev.sonde.forecast;

import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * AR(p) with drift on the first differences (an ARIMA(p,1,0)), p chosen by AICc on a common sample
 * and fitted by least squares; forecasts are summed back onto the last observation.
 */
final class Autoregression implements Model {
  private static final int MAX_ORDER = 10;

  @Override
  public String id() {
    return "ar";
  }

  @Override
  public String label() {
    return "AR(p) on differences with drift, p by AICc";
  }

  @Override
  public boolean fitsAdjusted() {
    return true;
  }

  @Override
  public boolean fits(int n, int m) {
    return n >= 8;
  }

  @Override
  public Prediction predict(double[] y, int m, int h) {
    int n = y.length;
    double[] d = new double[n - 1];
    double largest = 0;
    for (int t = 1; t < n; t++) {
      d[t - 1] = y[t] - y[t - 1];
      largest = Math.max(largest, Math.abs(d[t - 1]));
    }
    int maxOrder = Math.min(MAX_ORDER, (d.length - 2) / 3);
    int sample = d.length - maxOrder;
    double bestAicc = Double.MAX_VALUE;
    double[] best = {mean(d)};
    for (int p = 0; p <= maxOrder; p++) {
      double[] coefficients = p == 0 ? new double[] {mean(d, maxOrder)} : fit(d, p, maxOrder);
      double sse = 0;
      for (int t = maxOrder; t < d.length; t++) {
        double e = d[t] - step(coefficients, d, t);
        sse += e * e;
      }
      int k = p + 1;
      if (sample - k - 1 <= 0) {
        break;
      }
      double aicc =
          sample * Math.log(Math.max(sse / sample, 1e-300))
              + 2.0 * k
              + 2.0 * k * (k + 1) / (sample - k - 1);
      if (aicc < bestAicc) {
        bestAicc = aicc;
        best = coefficients;
      }
    }
    double[] extended = new double[d.length + h];
    System.arraycopy(d, 0, extended, 0, d.length);
    double[] mean = new double[h];
    double level = y[n - 1];
    for (int j = 0; j < h; j++) {
      double next = step(best, extended, d.length + j);
      // an explosive fit falls back to the drift alone rather than running away
      if (!Double.isFinite(next) || Math.abs(next) > 10 * Math.max(largest, 1e-9)) {
        next = mean(d);
      }
      extended[d.length + j] = next;
      level += next;
      mean[j] = level;
    }
    return new Prediction(mean, null);
  }

  private static double step(double[] coefficients, double[] d, int t) {
    double v = coefficients[0];
    for (int i = 1; i < coefficients.length; i++) {
      v += coefficients[i] * d[t - i];
    }
    return v;
  }

  private static double[] fit(double[] d, int p, int from) {
    int rows = d.length - from;
    double[] target = new double[rows];
    double[][] lags = new double[rows][p];
    for (int r = 0; r < rows; r++) {
      int t = from + r;
      target[r] = d[t];
      for (int i = 1; i <= p; i++) {
        lags[r][i - 1] = d[t - i];
      }
    }
    OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
    try {
      ols.newSampleData(target, lags);
      return ols.estimateRegressionParameters();
    } catch (RuntimeException singular) {
      double[] drift = new double[p + 1];
      drift[0] = mean(d, from);
      return drift;
    }
  }

  private static double mean(double[] d) {
    return mean(d, 0);
  }

  private static double mean(double[] d, int from) {
    double sum = 0;
    for (int t = from; t < d.length; t++) {
      sum += d[t];
    }
    return d.length > from ? sum / (d.length - from) : 0;
  }
}
