package dev.sonde.forecast;

import dev.sonde.core.Call;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.RealVector;

/**
 * Trend regressions: a line, a parabola, a line with K Fourier pairs (K by AICc), and a
 * Prophet-like piecewise-linear trend with ridge-shrunk changepoints and Fourier seasonality.
 * Forecasts are anchored: shifted so they continue from the last observation without a jump.
 */
final class Regression implements Model {
  enum Form {
    LINEAR("linear", "Linear trend, anchored at the last value"),
    QUADRATIC("quadratic", "Quadratic trend, anchored at the last value"),
    HARMONIC("harmonic", "Linear trend + Fourier seasonality (K by AICc), anchored"),
    PROPHET("prophet", "Piecewise-linear trend with changepoints + Fourier seasonality, anchored");

    final String id;
    final String label;

    Form(String id, String label) {
      this.id = id;
      this.label = label;
    }
  }

  private static final int MAX_CHANGEPOINTS = 25;

  /**
   * Sine and cosine pairs searched at most: each pair is a column of every fit, so a season of
   * 1,440 minutes searched to m/2 would cost O(n·m³) (a fit of hours that nothing could stop).
   */
  private static final int MAX_HARMONICS = 12;

  /** Prophet's default prior scale for slope changes, on data scaled by its largest value. */
  private static final double CHANGEPOINT_PRIOR = 0.05;

  private final Form form;

  Regression(Form form) {
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
    return form == Form.LINEAR || form == Form.QUADRATIC;
  }

  @Override
  public boolean fits(int n, int m) {
    return switch (form) {
      case LINEAR -> n >= 3;
      case QUADRATIC -> n >= 5;
      case HARMONIC -> m > 1 && n >= 2 * m;
      case PROPHET -> n >= 8;
    };
  }

  @Override
  public Prediction predict(double[] y, int m, int h) {
    int n = y.length;
    List<IntToDoubleFunction> columns = new ArrayList<>();
    List<IntToDoubleFunction> penalised = new ArrayList<>();
    columns.add(t -> 1);
    columns.add(t -> (double) t / n);
    switch (form) {
      case QUADRATIC -> columns.add(t -> (double) t * t / ((double) n * n));
      case HARMONIC -> {
        return bestHarmonic(y, m, h, columns);
      }
      case PROPHET -> {
        if (m > 1 && n >= 2 * m) {
          fourier(columns, m, Math.min(m / 2, 10));
        }
        int count = Math.min(MAX_CHANGEPOINTS, n / 4);
        for (int c = 1; c <= count; c++) {
          int at = (int) Math.round(0.8 * n * c / (count + 1));
          penalised.add(t -> Math.max(0, (double) (t - at) / n));
        }
      }
      default -> {}
    }
    double lambda = 0;
    if (!penalised.isEmpty()) {
      double sigma2 = solve(y, columns, List.of(), 0).sse() / Math.max(1, n - columns.size());
      double largest = 0;
      for (double v : y) {
        largest = Math.max(largest, Math.abs(v));
      }
      double tau = CHANGEPOINT_PRIOR * Math.max(largest, 1e-9);
      lambda = sigma2 / (tau * tau);
    }
    return anchored(y, h, columns, penalised, solve(y, columns, penalised, lambda));
  }

  private Prediction bestHarmonic(
      double[] y, int m, int h, List<IntToDoubleFunction> trendColumns) {
    int n = y.length;
    Fitted best = null;
    List<IntToDoubleFunction> bestColumns = null;
    double bestAicc = Double.MAX_VALUE;
    for (int k = 1; k <= Math.min(m / 2, MAX_HARMONICS); k++) {
      Call.checkpointHere();
      List<IntToDoubleFunction> columns = new ArrayList<>(trendColumns);
      fourier(columns, m, k);
      int p = columns.size();
      if (n - p - 1 <= 0) {
        break;
      }
      Fitted fitted = solve(y, columns, List.of(), 0);
      double aicc =
          n * Math.log(Math.max(fitted.sse() / n, 1e-300))
              + 2.0 * p
              + 2.0 * p * (p + 1) / (n - p - 1);
      if (aicc < bestAicc) {
        bestAicc = aicc;
        best = fitted;
        bestColumns = columns;
      }
    }
    return anchored(y, h, bestColumns, List.of(), best);
  }

  /** Adds sine and cosine pairs 1..k of period m (the sine at m/2 is zero and left out). */
  private static void fourier(List<IntToDoubleFunction> columns, int m, int k) {
    for (int j = 1; j <= k; j++) {
      double w = 2 * Math.PI * j / m;
      if (2 * j != m) {
        columns.add(t -> Math.sin(w * t));
      }
      columns.add(t -> Math.cos(w * t));
    }
  }

  private record Fitted(double[] coefficients, double sse) {}

  /** Least squares, with a ridge penalty lambda on the penalised columns (augmented rows, QR). */
  private static Fitted solve(
      double[] y,
      List<IntToDoubleFunction> columns,
      List<IntToDoubleFunction> penalised,
      double lambda) {
    int n = y.length;
    int p = columns.size() + penalised.size();
    int rows = n + penalised.size();
    double[][] x = new double[rows][p];
    double[] target = new double[rows];
    for (int t = 0; t < n; t++) {
      for (int j = 0; j < p; j++) {
        x[t][j] = column(columns, penalised, j).applyAsDouble(t);
      }
      target[t] = y[t];
    }
    double root = Math.sqrt(lambda);
    for (int j = 0; j < penalised.size(); j++) {
      x[n + j][columns.size() + j] = root;
    }
    RealVector beta =
        new QRDecomposition(new Array2DRowRealMatrix(x, false), 1e-12)
            .getSolver()
            .solve(new ArrayRealVector(target, false));
    double sse = 0;
    for (int t = 0; t < n; t++) {
      double fitted = 0;
      for (int j = 0; j < p; j++) {
        fitted += x[t][j] * beta.getEntry(j);
      }
      sse += (y[t] - fitted) * (y[t] - fitted);
    }
    return new Fitted(beta.toArray(), sse);
  }

  private static IntToDoubleFunction column(
      List<IntToDoubleFunction> columns, List<IntToDoubleFunction> penalised, int j) {
    return j < columns.size() ? columns.get(j) : penalised.get(j - columns.size());
  }

  private static Prediction anchored(
      double[] y,
      int h,
      List<IntToDoubleFunction> columns,
      List<IntToDoubleFunction> penalised,
      Fitted fitted) {
    int n = y.length;
    double offset = y[n - 1] - value(columns, penalised, fitted, n - 1);
    double[] mean = new double[h];
    for (int j = 0; j < h; j++) {
      mean[j] = value(columns, penalised, fitted, n + j) + offset;
    }
    return new Prediction(mean, null);
  }

  private static double value(
      List<IntToDoubleFunction> columns,
      List<IntToDoubleFunction> penalised,
      Fitted fitted,
      int t) {
    double v = 0;
    for (int j = 0; j < fitted.coefficients().length; j++) {
      v += column(columns, penalised, j).applyAsDouble(t) * fitted.coefficients()[j];
    }
    return v;
  }
}
