package dev.sonde.forecast;

import dev.sonde.core.Call;
import org.apache.commons.math3.analysis.MultivariateFunction;

/**
 * R's Nelder-Mead ({@code nmmin} in R's optim.c, which the forecast package's {@code ets} calls
 * with the same constants): one initial step of a tenth of the largest parameter for every
 * coordinate, reflection 1, contraction 0.5, expansion 2, and a stop when the simplex's values
 * differ by less than {@code 1.49e-8} relative. Following it step for step is what makes the
 * smoothing models land where R's do on flat likelihoods.
 */
final class NelderMead {
  private static final double BIG = 1.0e35;
  private static final double TOLERANCE = 1.490116119384765625e-8;
  private static final double REFLECT = 1.0;
  private static final double CONTRACT = 0.5;
  private static final double EXPAND = 2.0;

  private NelderMead() {}

  static double[] minimise(MultivariateFunction f, double[] start, int maxEvaluations) {
    int n = start.length;
    int n1 = n + 1;
    int c = n + 2;
    double[][] p = new double[n1][c]; // rows: coordinates then the value; columns: vertices
    double[] b = start.clone();
    double value = value(f, b);
    int evaluations = 1;
    double convergence = TOLERANCE * (Math.abs(value) + TOLERANCE);
    p[n1 - 1][0] = value;
    for (int i = 0; i < n; i++) {
      p[i][0] = b[i];
    }
    int low = 1;
    double step = 0;
    for (int i = 0; i < n; i++) {
      step = Math.max(step, 0.1 * Math.abs(b[i]));
    }
    if (step == 0) {
      step = 0.1;
    }
    double size = 0;
    for (int j = 2; j <= n1; j++) {
      for (int i = 0; i < n; i++) {
        p[i][j - 1] = b[i];
      }
      double trial = step;
      while (p[j - 2][j - 1] == b[j - 2]) {
        p[j - 2][j - 1] = b[j - 2] + trial;
        trial *= 10;
      }
      size += trial;
    }
    double oldSize = size;
    boolean computeVertices = true;
    do {
      Call.checkpointHere();
      if (computeVertices) {
        for (int j = 0; j < n1; j++) {
          if (j + 1 != low) {
            for (int i = 0; i < n; i++) {
              b[i] = p[i][j];
            }
            p[n1 - 1][j] = value(f, b);
            evaluations++;
          }
        }
        computeVertices = false;
      }
      double vl = p[n1 - 1][low - 1];
      double vh = vl;
      int high = low;
      for (int j = 1; j <= n1; j++) {
        if (j != low) {
          double v = p[n1 - 1][j - 1];
          if (v < vl) {
            low = j;
            vl = v;
          }
          if (v > vh) {
            high = j;
            vh = v;
          }
        }
      }
      if (vh <= vl + convergence) {
        break;
      }
      for (int i = 0; i < n; i++) {
        double sum = -p[i][high - 1];
        for (int j = 0; j < n1; j++) {
          sum += p[i][j];
        }
        p[i][c - 1] = sum / n;
      }
      for (int i = 0; i < n; i++) {
        b[i] = (1 + REFLECT) * p[i][c - 1] - REFLECT * p[i][high - 1];
      }
      double vr = value(f, b);
      evaluations++;
      if (vr < vl) {
        p[n1 - 1][c - 1] = vr;
        for (int i = 0; i < n; i++) {
          double expanded = EXPAND * b[i] + (1 - EXPAND) * p[i][c - 1];
          p[i][c - 1] = b[i];
          b[i] = expanded;
        }
        double ve = value(f, b);
        evaluations++;
        if (ve < vr) {
          for (int i = 0; i < n; i++) {
            p[i][high - 1] = b[i];
          }
          p[n1 - 1][high - 1] = ve;
        } else {
          for (int i = 0; i < n; i++) {
            p[i][high - 1] = p[i][c - 1];
          }
          p[n1 - 1][high - 1] = vr;
        }
      } else {
        if (vr < vh) {
          for (int i = 0; i < n; i++) {
            p[i][high - 1] = b[i];
          }
          p[n1 - 1][high - 1] = vr;
        }
        for (int i = 0; i < n; i++) {
          b[i] = (1 - CONTRACT) * p[i][high - 1] + CONTRACT * p[i][c - 1];
        }
        double vc = value(f, b);
        evaluations++;
        if (vc < p[n1 - 1][high - 1]) {
          for (int i = 0; i < n; i++) {
            p[i][high - 1] = b[i];
          }
          p[n1 - 1][high - 1] = vc;
        } else if (vr >= vh) {
          computeVertices = true;
          size = 0;
          for (int j = 0; j < n1; j++) {
            if (j + 1 != low) {
              for (int i = 0; i < n; i++) {
                p[i][j] = CONTRACT * (p[i][j] - p[i][low - 1]) + p[i][low - 1];
                size += Math.abs(p[i][j] - p[i][low - 1]);
              }
            }
          }
          if (size < oldSize) {
            oldSize = size;
          } else {
            break;
          }
        }
      }
    } while (evaluations <= maxEvaluations);
    double[] best = new double[n];
    for (int i = 0; i < n; i++) {
      best[i] = p[i][low - 1];
    }
    return best;
  }

  private static double value(MultivariateFunction f, double[] x) {
    double v = f.value(x);
    return Double.isFinite(v) ? v : BIG;
  }
}
