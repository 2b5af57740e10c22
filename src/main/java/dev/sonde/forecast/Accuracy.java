package dev.sonde.forecast;

/** Forecast accuracy in the forms of the M3 and M4 competitions. */
public final class Accuracy {
  private Accuracy() {}

  /** Symmetric MAPE in percent, the M3 form: 200 |y - f| / (|y| + |f|), averaged. */
  public static double smape(double[] actual, double[] forecast) {
    double sum = 0;
    int count = 0;
    for (int i = 0; i < actual.length; i++) {
      double denominator = Math.abs(actual[i]) + Math.abs(forecast[i]);
      sum += denominator == 0 ? 0 : 200 * Math.abs(actual[i] - forecast[i]) / denominator;
      count++;
    }
    return count == 0 ? Double.NaN : sum / count;
  }

  /**
   * Mean absolute scaled error: the forecast's mean absolute error over the in-sample mean absolute
   * seasonal difference at lag {@code m} (lag 1 when the training data is shorter than two
   * seasons).
   */
  public static double mase(double[] training, int m, double[] actual, double[] forecast) {
    double scale = scale(training, m);
    double sum = 0;
    for (int i = 0; i < actual.length; i++) {
      sum += Math.abs(actual[i] - forecast[i]);
    }
    return sum / actual.length / scale;
  }

  static double scale(double[] training, int m) {
    int lag = training.length > m ? m : 1;
    double sum = 0;
    int count = 0;
    for (int t = lag; t < training.length; t++) {
      sum += Math.abs(training[t] - training[t - lag]);
      count++;
    }
    double scale = count == 0 ? 0 : sum / count;
    // a flat training window scales by the data's size so MASE stays finite
    return scale > 0 ? scale : Math.max(1e-9, Math.abs(training[training.length - 1]) * 1e-6);
  }
}
