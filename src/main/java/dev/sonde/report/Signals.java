package dev.sonde.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jtransforms.fft.DoubleFFT_1D;

/**
 * Vibration measures of a sampled signal: level (RMS, peak, peak-to-peak, crest factor, kurtosis),
 * the Hann-windowed amplitude spectrum, the envelope spectrum through the Hilbert transform, and
 * the velocity RMS that ISO 10816 zones are read from.
 */
public final class Signals {
  private Signals() {}

  /** A spectrum: amplitude at frequencies 0, df, 2 df ... up to Nyquist. */
  public record Spectrum(double df, double[] amplitude) {
    public double frequency(int bin) {
      return bin * df;
    }
  }

  /** A spectral line: frequency in Hz and amplitude. */
  public record Peak(double frequency, double amplitude) {}

  public static double mean(double[] x) {
    double sum = 0;
    for (double v : x) {
      sum += v;
    }
    return sum / x.length;
  }

  /** Root mean square of the signal with its mean (DC) removed. */
  public static double rms(double[] x) {
    double m = mean(x);
    double sum = 0;
    for (double v : x) {
      sum += (v - m) * (v - m);
    }
    return Math.sqrt(sum / x.length);
  }

  /** The largest distance from the mean. */
  public static double peak(double[] x) {
    double m = mean(x);
    double peak = 0;
    for (double v : x) {
      peak = Math.max(peak, Math.abs(v - m));
    }
    return peak;
  }

  public static double peakToPeak(double[] x) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : x) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    return max - min;
  }

  public static double crestFactor(double[] x) {
    double rms = rms(x);
    return rms == 0 ? 0 : peak(x) / rms;
  }

  /** Kurtosis as vibration analysis reads it (not excess): 3 for Gaussian noise, 1.5 for a sine. */
  public static double kurtosis(double[] x) {
    double m = mean(x);
    double m2 = 0;
    double m4 = 0;
    for (double v : x) {
      double d = (v - m) * (v - m);
      m2 += d;
      m4 += d * d;
    }
    m2 /= x.length;
    m4 /= x.length;
    return m2 == 0 ? 0 : m4 / (m2 * m2);
  }

  /**
   * The single-sided amplitude spectrum of the signal, mean removed, through a Hann window whose
   * coherent gain is corrected: a sine of amplitude A shows a line of height A.
   */
  public static Spectrum spectrum(double[] x, double sampleRate) {
    int n = x.length;
    double m = mean(x);
    double[] data = new double[2 * n];
    double gain = 0;
    for (int i = 0; i < n; i++) {
      double w = 0.5 * (1 - Math.cos(2 * Math.PI * i / (n - 1)));
      gain += w;
      data[i] = (x[i] - m) * w;
    }
    new DoubleFFT_1D(n).realForwardFull(data);
    int bins = n / 2 + 1;
    double[] amplitude = new double[bins];
    for (int k = 0; k < bins; k++) {
      double re = data[2 * k];
      double im = data[2 * k + 1];
      amplitude[k] = (k == 0 || 2 * k == n ? 1 : 2) * Math.hypot(re, im) / gain;
    }
    return new Spectrum(sampleRate / n, amplitude);
  }

  /** The envelope (magnitude of the analytic signal, Hilbert transform by FFT). */
  public static double[] envelope(double[] x) {
    int n = x.length;
    double m = mean(x);
    double[] data = new double[2 * n];
    for (int i = 0; i < n; i++) {
      data[2 * i] = x[i] - m;
    }
    DoubleFFT_1D fft = new DoubleFFT_1D(n);
    fft.complexForward(data);
    // analytic signal: keep DC (and Nyquist), double positive frequencies, drop negative ones
    for (int k = 1; k < n; k++) {
      double factor = k < (n + 1) / 2 ? 2 : (2 * k == n ? 1 : 0);
      data[2 * k] *= factor;
      data[2 * k + 1] *= factor;
    }
    fft.complexInverse(data, true);
    double[] envelope = new double[n];
    for (int i = 0; i < n; i++) {
      envelope[i] = Math.hypot(data[2 * i], data[2 * i + 1]);
    }
    return envelope;
  }

  /** The spectrum of the envelope: where bearing and gear defects show as lines. */
  public static Spectrum envelopeSpectrum(double[] x, double sampleRate) {
    return spectrum(envelope(x), sampleRate);
  }

  /**
   * The {@code count} highest local maxima of the spectrum above {@code minFrequency}, highest
   * first, each refined between bins by a Gaussian fit through its neighbours (a tone between two
   * bins would otherwise lose up to 15% of its height to the Hann window).
   */
  public static List<Peak> peaks(Spectrum s, int count, double minFrequency) {
    List<Peak> found = new ArrayList<>();
    double[] a = s.amplitude();
    for (int k = 1; k < a.length - 1; k++) {
      if (s.frequency(k) >= minFrequency && a[k] > a[k - 1] && a[k] >= a[k + 1]) {
        double left = Math.log(Math.max(a[k - 1], 1e-300));
        double centre = Math.log(a[k]);
        double right = Math.log(Math.max(a[k + 1], 1e-300));
        double curvature = left - 2 * centre + right;
        double offset = curvature == 0 ? 0 : 0.5 * (left - right) / curvature;
        found.add(
            new Peak((k + offset) * s.df(), Math.exp(centre - 0.25 * (left - right) * offset)));
      }
    }
    found.sort(Comparator.comparingDouble(Peak::amplitude).reversed());
    return found.subList(0, Math.min(count, found.size()));
  }

  /**
   * Velocity RMS in mm/s over [low, high] Hz from an acceleration signal in m/s², integrated in the
   * frequency domain (each line divided by 2 pi f), as ISO 10816 measures it.
   */
  public static double velocityRms(
      double[] acceleration, double sampleRate, double low, double high) {
    int n = acceleration.length;
    double m = mean(acceleration);
    double[] data = new double[2 * n];
    for (int i = 0; i < n; i++) {
      data[i] = acceleration[i] - m;
    }
    new DoubleFFT_1D(n).realForwardFull(data);
    double sum = 0;
    for (int k = 1; k <= n / 2; k++) {
      double f = k * sampleRate / n;
      if (f < low || f > high) {
        continue;
      }
      double magnitude = Math.hypot(data[2 * k], data[2 * k + 1]) / n;
      double velocity = magnitude / (2 * Math.PI * f) * 1000; // m/s to mm/s
      // a one-sided line carries twice the power of its bin (both halves of the spectrum)
      sum += (2 * k == n ? 1 : 2) * velocity * velocity;
    }
    return Math.sqrt(sum);
  }
}
