package dev.sonde.forecast;

/**
 * The Theta method as R's {@code thetaf} computes it (Hyndman and Billah, 2003): simple exponential
 * smoothing with a drift of half the least-squares slope, on seasonally adjusted data (the
 * forecaster adjusts it).
 */
final class Theta implements Model {
  private final Smoothing ses = new Smoothing(Smoothing.Form.SES);

  @Override
  public String id() {
    return "theta";
  }

  @Override
  public String label() {
    return "Theta (SES with half the linear drift)";
  }

  @Override
  public boolean fitsAdjusted() {
    return true;
  }

  @Override
  public boolean fits(int n, int m) {
    return n >= 3;
  }

  @Override
  public Prediction predict(double[] y, int m, int h) {
    Smoothing.Fit fit = ses.fit(y, 1);
    Prediction flat = ses.forecast(fit, h);
    int n = y.length;
    double drift = Smoothing.leastSquaresLine(y, n)[1] / 2;
    double alpha = Math.max(1e-10, fit.alpha());
    double[] mean = new double[h];
    for (int j = 0; j < h; j++) {
      mean[j] = flat.mean()[j] + drift * (j + (1 - Math.pow(1 - alpha, n)) / alpha);
    }
    return new Prediction(mean, flat.sd());
  }
}
