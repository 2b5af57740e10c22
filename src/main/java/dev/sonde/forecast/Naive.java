package dev.sonde.forecast;

/** The floors every model must beat: the last value, or the value one season ago. */
final class Naive implements Model {
  private final boolean seasonal;

  Naive(boolean seasonal) {
    this.seasonal = seasonal;
  }

  @Override
  public String id() {
    return seasonal ? "snaive" : "naive";
  }

  @Override
  public String label() {
    return seasonal ? "Seasonal naive (the value one season ago)" : "Naive (the last value)";
  }

  @Override
  public boolean fitsAdjusted() {
    return false;
  }

  @Override
  public boolean fits(int n, int m) {
    return seasonal ? m > 1 && n >= m + 1 : n >= 2;
  }

  @Override
  public Prediction predict(double[] y, int m, int h) {
    int lag = seasonal ? m : 1;
    int n = y.length;
    double sse = 0;
    for (int t = lag; t < n; t++) {
      sse += (y[t] - y[t - lag]) * (y[t] - y[t - lag]);
    }
    double sigma = Math.sqrt(sse / Math.max(1, n - lag));
    double[] mean = new double[h];
    double[] sd = new double[h];
    for (int j = 1; j <= h; j++) {
      mean[j - 1] = y[n - lag + (j - 1) % lag];
      sd[j - 1] = sigma * Math.sqrt(seasonal ? (j - 1) / m + 1 : j);
    }
    return new Prediction(mean, sd);
  }
}
