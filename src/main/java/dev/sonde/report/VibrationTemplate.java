package dev.sonde.report;

import dev.sonde.core.CallerException;
import dev.sonde.core.HtmlPage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * R-2-vibration: per axis, RMS, peak, peak-to-peak, crest factor and kurtosis; the Hann-windowed
 * spectrum with its top peaks; the envelope spectrum (Hilbert transform) for bearing and gear
 * defects; and the ISO 10816-1 zone of the 10–1000 Hz velocity RMS, reading the values as m/s².
 */
final class VibrationTemplate implements ReportTemplate {
  static final String ID = "R-2-vibration";
  private static final int WAVEFORM_POINTS = 1000;

  /** ISO 10816-1 zone limits (A/B, B/C, C/D) in mm/s RMS, classes I to IV. */
  private static final double[][] ISO_10816_1 = {
    {0.71, 1.8, 4.5}, {1.12, 2.8, 7.1}, {1.8, 4.5, 11.2}, {2.8, 7.1, 18.0}
  };

  private static final String[] CLASSES = {
    "I (small machines, up to 15 kW)",
    "II (medium machines, 15–75 kW)",
    "III (large machines, rigid foundations)",
    "IV (large machines, soft foundations)"
  };

  private static final int SCREENING_CLASS = 1;

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String title() {
    return "Vibration analysis";
  }

  @Override
  public String description() {
    return "RMS, peak, peak-to-peak, crest factor, kurtosis, FFT spectrum peaks, envelope"
        + " spectrum, ISO 10816 zone screening (raw samples)";
  }

  @Override
  public boolean wantsRaw() {
    return true;
  }

  static double sampleRate(long[] times) {
    long[] steps = new long[times.length - 1];
    for (int i = 1; i < times.length; i++) {
      steps[i - 1] = times[i] - times[i - 1];
    }
    Arrays.sort(steps);
    long median = steps[steps.length / 2];
    return median > 0 ? 1000.0 / median : 0;
  }

  static String zone(double velocityRms, int isoClass) {
    double[] limits = ISO_10816_1[isoClass];
    return velocityRms < limits[0]
        ? "A (newly commissioned)"
        : velocityRms < limits[1]
            ? "B (unrestricted long-term operation)"
            : velocityRms < limits[2] ? "C (restricted operation)" : "D (damage may occur)";
  }

  @Override
  public Analysis analyse(ReportData data) {
    JsonObject summary = new JsonObject();
    List<List<Object>> rows = new ArrayList<>();
    List<JsonObject> waveforms = new ArrayList<>();
    List<JsonObject> spectra = new ArrayList<>();
    List<JsonObject> envelopes = new ArrayList<>();
    List<String> peakLines = new ArrayList<>();
    for (Series s : data.series()) {
      double[] x = s.values();
      if (x.length < 64) {
        throw new CallerException(
            "vibration analysis needs raw samples (at least 64 for "
                + s.tag()
                + "); give a time_start/time_end covering some seconds of data");
      }
      double rate = sampleRate(s.times());
      Signals.Spectrum spectrum = Signals.spectrum(x, rate);
      Signals.Spectrum envelope = Signals.envelopeSpectrum(x, rate);
      List<Signals.Peak> peaks = Signals.peaks(spectrum, 5, 1);
      List<Signals.Peak> envelopePeaks = Signals.peaks(envelope, 3, 1);
      double velocity = Signals.velocityRms(x, rate, 10, Math.min(1000, rate / 2));
      String zone = zone(velocity, SCREENING_CLASS);
      JsonObject axis =
          new JsonObject()
              .put("samples", x.length)
              .put("sample_rate_hz", Blocks.round(rate))
              .put("rms", Blocks.round(Signals.rms(x)))
              .put("peak", Blocks.round(Signals.peak(x)))
              .put("peak_to_peak", Blocks.round(Signals.peakToPeak(x)))
              .put("crest_factor", Blocks.round(Signals.crestFactor(x)))
              .put("kurtosis", Blocks.round(Signals.kurtosis(x)))
              .put("spectrum_peaks", peaks(peaks))
              .put("envelope_peaks", peaks(envelopePeaks))
              .put("velocity_rms_mm_s", Blocks.round(velocity))
              .put("iso_10816_zone", zone);
      summary.put(s.tag(), axis);
      rows.add(
          List.of(
              s.tag(),
              axis.getDouble("rms"),
              axis.getDouble("peak"),
              axis.getDouble("peak_to_peak"),
              axis.getDouble("crest_factor"),
              axis.getDouble("kurtosis"),
              axis.getDouble("velocity_rms_mm_s"),
              zone));
      peakLines.add(
          s.tag() + ": spectrum " + describe(peaks) + "; envelope " + describe(envelopePeaks));
      int shown = Math.min(WAVEFORM_POINTS, x.length);
      waveforms.add(
          Blocks.line(
              s.tag(), Blocks.points(Arrays.copyOf(s.times(), shown), Arrays.copyOf(x, shown))));
      spectra.add(spectrumLine(s.tag(), spectrum));
      envelopes.add(spectrumLine(s.tag(), envelope));
    }
    StringBuilder iso = new StringBuilder();
    List<List<Object>> limits = new ArrayList<>();
    for (int c = 0; c < CLASSES.length; c++) {
      limits.add(
          List.of(
              CLASSES[c],
              "< " + ISO_10816_1[c][0],
              ISO_10816_1[c][0] + " – " + ISO_10816_1[c][1],
              ISO_10816_1[c][1] + " – " + ISO_10816_1[c][2],
              "≥ " + ISO_10816_1[c][2]));
    }
    iso.append(
            Blocks.paragraph(
                "Zones from ISO 10816-1 (superseded in part by ISO 20816-1, same limits), class "
                    + CLASSES[SCREENING_CLASS]
                    + ", on the velocity RMS over 10–1000 Hz integrated from the samples read as"
                    + " acceleration in m/s². A screening, not a diagnosis: the machine's class and"
                    + " the sensor's units decide the real zone."))
        .append(Blocks.table(List.of("class", "A", "B", "C", "D (mm/s RMS)"), limits));
    summary.put("iso_table", "ISO 10816-1 class " + CLASSES[SCREENING_CLASS]);
    List<Section> sections = new ArrayList<>();
    sections.add(
        new Section(
            "Levels",
            Blocks.table(
                List.of(
                    "axis",
                    "RMS",
                    "peak",
                    "peak-to-peak",
                    "crest factor",
                    "kurtosis",
                    "velocity RMS mm/s",
                    "ISO 10816 zone"),
                rows),
            List.of(Blocks.timeChart("Waveform (first samples)", waveforms, false))));
    StringBuilder peaksHtml = new StringBuilder("<ul>");
    peakLines.forEach(l -> peaksHtml.append("<li>").append(HtmlPage.escape(l)).append("</li>"));
    peaksHtml.append("</ul>");
    sections.add(
        new Section(
            "Spectrum (Hann window)",
            peaksHtml.toString(),
            List.of(Blocks.xyChart("Amplitude spectrum", "Hz", "amplitude", spectra, "value"))));
    sections.add(
        new Section(
            "Envelope spectrum (Hilbert transform)",
            Blocks.paragraph(
                "Lines here are repetition rates of impacts or modulation (bearing and gear"
                    + " defects), not tones."),
            List.of(Blocks.xyChart("Envelope spectrum", "Hz", "amplitude", envelopes, "value"))));
    sections.add(new Section("ISO 10816 screening", iso.toString(), List.of()));
    return new Analysis(summary, sections);
  }

  private static JsonArray peaks(List<Signals.Peak> peaks) {
    JsonArray out = new JsonArray();
    peaks.forEach(
        p ->
            out.add(
                new JsonObject()
                    .put("hz", Blocks.round(p.frequency()))
                    .put("amplitude", Blocks.round(p.amplitude()))));
    return out;
  }

  private static String describe(List<Signals.Peak> peaks) {
    return String.join(
        ", ",
        peaks.stream()
            .map(p -> Blocks.text(p.frequency()) + " Hz (" + Blocks.text(p.amplitude()) + ")")
            .toList());
  }

  private static JsonObject spectrumLine(String name, Signals.Spectrum s) {
    JsonArray data = new JsonArray();
    for (int k = 0; k < s.amplitude().length; k++) {
      data.add(
          new JsonArray().add(Blocks.round(s.frequency(k))).add(Blocks.round(s.amplitude()[k])));
    }
    return Blocks.line(name, data);
  }
}
