package dev.sonde.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Vibration measures on signals whose answers are known. */
class SignalsTest {
  static final double RATE = 1000;

  static double[] sine(double amplitude, double hz, int n) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = amplitude * Math.sin(2 * Math.PI * hz * i / RATE);
    }
    return x;
  }

  @Test
  void aSineHasRmsAOverRootTwoCrestRootTwoAndKurtosisOneAndAHalf() {
    double[] x = sine(2.0, 50, 10_000);
    assertEquals(2.0 / Math.sqrt(2), Signals.rms(x), 1e-3);
    assertEquals(2.0, Signals.peak(x), 1e-3);
    assertEquals(4.0, Signals.peakToPeak(x), 1e-3);
    assertEquals(Math.sqrt(2), Signals.crestFactor(x), 1e-3);
    assertEquals(1.5, Signals.kurtosis(x), 1e-3);
  }

  @Test
  void whiteNoiseHasKurtosisThree() {
    Random random = new Random(7);
    double[] x = new double[100_000];
    for (int i = 0; i < x.length; i++) {
      x[i] = random.nextGaussian();
    }
    assertEquals(3.0, Signals.kurtosis(x), 0.05);
    assertEquals(1.0, Signals.rms(x), 0.01);
  }

  @Test
  void theSpectrumShowsEachToneAtItsFrequencyAndAmplitudeForAnyLength() {
    double[] x = sine(0.8, 50, 9_973); // a prime length
    double[] y = sine(0.2, 87, 9_973);
    for (int i = 0; i < x.length; i++) {
      x[i] += y[i];
    }
    List<Signals.Peak> peaks = Signals.peaks(Signals.spectrum(x, RATE), 2, 1);
    assertEquals(50, peaks.get(0).frequency(), 0.2);
    assertEquals(0.8, peaks.get(0).amplitude(), 0.8 * 0.03);
    assertEquals(87, peaks.get(1).frequency(), 0.2);
    assertEquals(0.2, peaks.get(1).amplitude(), 0.2 * 0.03);
  }

  @Test
  void anAmplitudeModulatedCarrierShowsItsModulationInTheEnvelopeSpectrum() {
    int n = 8192;
    double[] x = new double[n];
    Random random = new Random(3);
    for (int i = 0; i < n; i++) {
      double t = i / RATE;
      x[i] =
          (1 + 0.5 * Math.sin(2 * Math.PI * 87 * t)) * Math.sin(2 * Math.PI * 300 * t)
              + 0.05 * random.nextGaussian();
    }
    Signals.Peak line = Signals.peaks(Signals.envelopeSpectrum(x, RATE), 1, 5).get(0);
    assertEquals(87, line.frequency(), 0.3);
    assertEquals(0.5, line.amplitude(), 0.05);
    // the plain spectrum has the carrier, not the modulation
    assertTrue(
        Math.abs(Signals.peaks(Signals.spectrum(x, RATE), 1, 5).get(0).frequency() - 300) < 0.3);
  }

  @Test
  void velocityRmsIntegratesAccelerationOverTheIsoBand() {
    // 10 m/s² at 50 Hz: velocity amplitude 10 / (2 pi 50) m/s, RMS of that in mm/s
    double[] x = sine(10, 50, 10_000);
    double expected = 10 / (2 * Math.PI * 50) / Math.sqrt(2) * 1000;
    assertEquals(expected, Signals.velocityRms(x, RATE, 10, 1000), expected * 0.01);
    assertEquals(0, Signals.velocityRms(sine(10, 5, 10_000), RATE, 10, 1000), 0.5);
  }
}
