package dev.sonde.report;

import dev.sonde.core.CallerException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.ml.clustering.CentroidCluster;
import org.apache.commons.math3.ml.clustering.DoublePoint;
import org.apache.commons.math3.ml.clustering.KMeansPlusPlusClusterer;
import org.apache.commons.math3.random.JDKRandomGenerator;
import org.apache.commons.math3.stat.correlation.PearsonsCorrelation;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;

/**
 * R-3-driving: speed and RPM aligned on their common times, their Pearson and Spearman correlation,
 * RPM/speed ratios clustered into gears (k-means, k by silhouette), and the drive cut into idle,
 * accelerating, cruising and braking segments.
 */
final class DrivingTemplate implements ReportTemplate {
  static final String ID = "R-3-driving";
  private static final double MOVING_KMH = 5;
  private static final double IDLE_KMH = 2;

  /** km/h per second beyond which the car is accelerating or braking. */
  private static final double ACCELERATION = 0.5;

  private static final int SILHOUETTE_SAMPLE = 1500;

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String title() {
    return "Driving analysis";
  }

  @Override
  public String description() {
    return "speed/RPM alignment, Pearson and Spearman correlation, gears from RPM/speed ratio"
        + " clusters, driving-pattern segments (needs speed and rpm tags)";
  }

  @Override
  public boolean wantsRaw() {
    return true;
  }

  static Series find(List<Series> series, String word) {
    return series.stream()
        .filter(s -> s.tag().toLowerCase(Locale.ROOT).contains(word))
        .findFirst()
        .orElseThrow(
            () ->
                new CallerException(
                    "the driving template needs a tag named like '"
                        + word
                        + "'; name it in tag_name, e.g. \"speed,rpm\""));
  }

  @Override
  public Analysis analyse(ReportData data) {
    Series speed = find(data.series(), "speed");
    Series rpm = find(data.series(), "rpm");
    Map<Long, Double> rpmAt = new HashMap<>();
    for (int i = 0; i < rpm.times().length; i++) {
      rpmAt.put(rpm.times()[i], rpm.values()[i]);
    }
    List<long[]> times = new ArrayList<>();
    List<double[]> pairs = new ArrayList<>();
    for (int i = 0; i < speed.times().length; i++) {
      Double r = rpmAt.get(speed.times()[i]);
      if (r != null) {
        times.add(new long[] {speed.times()[i]});
        pairs.add(new double[] {speed.values()[i], r});
      }
    }
    if (pairs.size() < 10) {
      throw new CallerException(
          "speed and rpm share only "
              + pairs.size()
              + " timestamps; give rollup_unit (e.g. sec) to align them by bucket");
    }
    int n = pairs.size();
    double[] v = new double[n];
    double[] r = new double[n];
    long[] t = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = pairs.get(i)[0];
      r[i] = pairs.get(i)[1];
      t[i] = times.get(i)[0];
    }
    double pearson = new PearsonsCorrelation().correlation(v, r);
    double spearman = new SpearmansCorrelation().correlation(v, r);
    List<Gear> gears = gears(v, r);
    Map<String, double[]> segments = segments(t, v);
    JsonArray gearJson = new JsonArray();
    List<List<Object>> gearRows = new ArrayList<>();
    for (int g = 0; g < gears.size(); g++) {
      Gear gear = gears.get(g);
      gearJson.add(
          new JsonObject()
              .put("gear", g + 1)
              .put("rpm_per_kmh", Blocks.round(gear.ratio()))
              .put("share", Blocks.round(gear.share()))
              .put("speed_min", Blocks.round(gear.minSpeed()))
              .put("speed_max", Blocks.round(gear.maxSpeed())));
      gearRows.add(
          List.of(
              g + 1,
              gear.ratio(),
              Blocks.pct(gear.share()),
              Blocks.text(gear.minSpeed()) + " – " + Blocks.text(gear.maxSpeed())));
    }
    JsonObject segmentJson = new JsonObject();
    List<List<Object>> segmentRows = new ArrayList<>();
    segments.forEach(
        (kind, stats) -> {
          segmentJson.put(
              kind,
              new JsonObject()
                  .put("segments", (int) stats[0])
                  .put("seconds", Blocks.round(stats[1]))
                  .put("longest_seconds", Blocks.round(stats[2])));
          segmentRows.add(List.of(kind, (int) stats[0], stats[1], stats[2]));
        });
    JsonObject summary =
        new JsonObject()
            .put("aligned_samples", n)
            .put("pearson", Blocks.round(pearson))
            .put("spearman", Blocks.round(spearman))
            .put("gears", gearJson)
            .put("segments", segmentJson);
    List<JsonObject> scatter = new ArrayList<>();
    for (int g = 0; g < gears.size(); g++) {
      JsonArray points = new JsonArray();
      for (int i = 0; i < n; i += Math.max(1, n / 3000)) {
        if (v[i] >= MOVING_KMH && nearest(gears, r[i] / v[i]) == g) {
          points.add(new JsonArray().add(Blocks.round(v[i])).add(Blocks.round(r[i])));
        }
      }
      scatter.add(
          new JsonObject()
              .put("name", "gear " + (g + 1))
              .put("type", "scatter")
              .put("symbolSize", 3)
              .put("data", points));
    }
    List<Section> sections = new ArrayList<>();
    sections.add(
        new Section(
            "Speed and RPM",
            Blocks.paragraph(
                String.format(
                    Locale.ROOT,
                    "%d samples aligned on common times. Pearson correlation %.3f, Spearman %.3f.",
                    n,
                    pearson,
                    spearman)),
            List.of(
                Blocks.timeChart(
                    "Speed", List.of(Blocks.line(speed.tag(), Blocks.points(t, v))), false),
                Blocks.timeChart(
                    "RPM", List.of(Blocks.line(rpm.tag(), Blocks.points(t, r))), false))));
    sections.add(
        new Section(
            "Gears (RPM / speed ratio clusters)",
            Blocks.table(
                List.of("gear", "rpm per km/h", "share of moving time", "speed range km/h"),
                gearRows),
            List.of(
                Blocks.xyChart("RPM against speed, by gear", "km/h", "rpm", scatter, "value"))));
    sections.add(
        new Section(
            "Driving pattern",
            Blocks.paragraph(
                    "Idle below "
                        + IDLE_KMH
                        + " km/h; accelerating or braking beyond "
                        + ACCELERATION
                        + " km/h per second; cruising otherwise.")
                + Blocks.table(
                    List.of("pattern", "segments", "seconds", "longest (s)"), segmentRows),
            List.of()));
    return new Analysis(summary, sections);
  }

  record Gear(double ratio, double share, double minSpeed, double maxSpeed) {}

  /** k-means on the moving samples' RPM/speed ratio, k from 2 to 6 by mean silhouette. */
  static List<Gear> gears(double[] v, double[] r) {
    List<DoublePoint> ratios = new ArrayList<>();
    List<Double> speeds = new ArrayList<>();
    for (int i = 0; i < v.length; i++) {
      if (v[i] >= MOVING_KMH) {
        ratios.add(new DoublePoint(new double[] {r[i] / v[i]}));
        speeds.add(v[i]);
      }
    }
    if (ratios.size() < 10) {
      throw new CallerException(
          "the car hardly moves in this period; choose a period with driving");
    }
    List<CentroidCluster<DoublePoint>> best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int k = 2; k <= 6; k++) {
      JDKRandomGenerator random = new JDKRandomGenerator();
      random.setSeed(42);
      List<CentroidCluster<DoublePoint>> clusters =
          new KMeansPlusPlusClusterer<DoublePoint>(
                  k, 100, new org.apache.commons.math3.ml.distance.EuclideanDistance(), random)
              .cluster(ratios);
      double score = silhouette(clusters);
      if (score > bestScore) {
        bestScore = score;
        best = clusters;
      }
    }
    List<Gear> gears = new ArrayList<>();
    Map<DoublePoint, Double> speedOf = new IdentityHashMap<>();
    for (int i = 0; i < ratios.size(); i++) {
      speedOf.put(ratios.get(i), speeds.get(i));
    }
    for (CentroidCluster<DoublePoint> c : best) {
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (DoublePoint p : c.getPoints()) {
        double s = speedOf.get(p);
        min = Math.min(min, s);
        max = Math.max(max, s);
      }
      gears.add(
          new Gear(
              c.getCenter().getPoint()[0],
              (double) c.getPoints().size() / ratios.size(),
              min,
              max));
    }
    gears.sort(Comparator.comparingDouble(Gear::ratio).reversed());
    return gears;
  }

  private static double silhouette(List<CentroidCluster<DoublePoint>> clusters) {
    List<double[]> points = new ArrayList<>();
    for (int c = 0; c < clusters.size(); c++) {
      List<DoublePoint> members = clusters.get(c).getPoints();
      int step = Math.max(1, members.size() * clusters.size() / SILHOUETTE_SAMPLE);
      for (int i = 0; i < members.size(); i += step) {
        points.add(new double[] {members.get(i).getPoint()[0], c});
      }
    }
    double total = 0;
    for (double[] p : points) {
      double[] sum = new double[clusters.size()];
      int[] count = new int[clusters.size()];
      for (double[] q : points) {
        if (q != p) {
          sum[(int) q[1]] += Math.abs(p[0] - q[0]);
          count[(int) q[1]]++;
        }
      }
      int own = (int) p[1];
      double a = count[own] == 0 ? 0 : sum[own] / count[own];
      double b = Double.POSITIVE_INFINITY;
      for (int c = 0; c < sum.length; c++) {
        if (c != own && count[c] > 0) {
          b = Math.min(b, sum[c] / count[c]);
        }
      }
      total += count[own] == 0 || !Double.isFinite(b) ? 0 : (b - a) / Math.max(a, b);
    }
    return total / points.size();
  }

  private static int nearest(List<Gear> gears, double ratio) {
    int best = 0;
    for (int g = 1; g < gears.size(); g++) {
      if (Math.abs(gears.get(g).ratio() - ratio) < Math.abs(gears.get(best).ratio() - ratio)) {
        best = g;
      }
    }
    return best;
  }

  /** Per pattern: number of segments, total seconds, longest segment's seconds. */
  static Map<String, double[]> segments(long[] t, double[] raw) {
    // speed readings are noisy sample to sample: classify a two-second moving average
    long[] steps = new long[t.length - 1];
    for (int i = 1; i < t.length; i++) {
      steps[i - 1] = t[i] - t[i - 1];
    }
    java.util.Arrays.sort(steps);
    long step = Math.max(1, steps[steps.length / 2]);
    int window = (int) Math.max(1, Math.min(raw.length - 1, 2000 / step));
    double[] v = Blocks.movingAverage(raw, window);
    Map<String, double[]> out = new LinkedHashMap<>();
    for (String kind : List.of("idle", "accelerating", "cruising", "braking")) {
      out.put(kind, new double[3]);
    }
    String current = null;
    double length = 0;
    for (int i = 1; i < v.length; i++) {
      double seconds = (t[i] - t[i - 1]) / 1000.0;
      if (seconds <= 0 || seconds > 60) {
        current = null; // a gap between trips ends a segment
        continue;
      }
      int back = Math.max(0, i - window);
      double span = (t[i] - t[back]) / 1000.0;
      double rate = span > 0 ? (v[i] - v[back]) / span : 0;
      String kind =
          v[i] < IDLE_KMH
              ? "idle"
              : rate > ACCELERATION
                  ? "accelerating"
                  : rate < -ACCELERATION ? "braking" : "cruising";
      double[] stats = out.get(kind);
      if (!kind.equals(current)) {
        stats[0]++;
        length = 0;
        current = kind;
      }
      length += seconds;
      stats[1] += seconds;
      stats[2] = Math.max(stats[2], length);
    }
    return out;
  }
}
