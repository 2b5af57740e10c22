package dev.sonde.forecast;

import java.util.List;

/**
 * STL + ETS, as R's {@code stlf}: the STL seasonal component is taken out, the adjusted series is
 * forecast by the non-seasonal exponential smoothing model with the lowest AICc (A,N,N, A,A,N or
 * A,Ad,N), and the last season is put back. Meant for high-frequency data with daily or weekly
 * cycles, where Holt-Winters has too many states.
 */
final class StlEts implements Model {
  private static final List<Smoothing> CANDIDATES =
      List.of(
          new Smoothing(Smoothing.Form.SES),
          new Smoothing(Smoothing.Form.HOLT),
          new Smoothing(Smoothing.Form.DAMPED));

  @Override
  public String id() {
    return "stl";
  }

  @Override
  public String label() {
    return "STL decomposition + ETS on the adjusted series";
  }

  @Override
  public boolean fitsAdjusted() {
    return false;
  }

  @Override
  public boolean fits(int n, int m) {
    return m > 1 && n >= 2 * m + 1;
  }

  @Override
  public Prediction predict(double[] y, int m, int h) {
    int n = y.length;
    double[] season = Stl.seasonal(y, m);
    double[] adjusted = new double[n];
    for (int t = 0; t < n; t++) {
      adjusted[t] = y[t] - season[t];
    }
    Smoothing best = null;
    Smoothing.Fit bestFit = null;
    double bestAicc = Double.MAX_VALUE;
    for (Smoothing candidate : CANDIDATES) {
      Smoothing.Fit fit = candidate.fit(adjusted, 1);
      int k = candidate.parameters();
      double sse = fit.sigma2() * Math.max(1, n - k);
      double aicc =
          n * Math.log(Math.max(sse / n, 1e-300))
              + 2.0 * k
              + (n - k - 1 > 0 ? 2.0 * k * (k + 1) / (n - k - 1) : 0);
      if (aicc < bestAicc) {
        bestAicc = aicc;
        best = candidate;
        bestFit = fit;
      }
    }
    Prediction p = best.forecast(bestFit, h);
    double[] mean = new double[h];
    for (int j = 0; j < h; j++) {
      mean[j] = p.mean()[j] + season[n - m + j % m];
    }
    return new Prediction(mean, p.sd());
  }
}
