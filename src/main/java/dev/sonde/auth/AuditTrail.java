package dev.sonde.auth;

import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON line per tool call in {@code <data>/audit/<yyyy-MM-dd>.jsonl} (UTC days): when, which
 * account on which transport, the tool, its connection, the statement's SHA-256 and first 500
 * characters, rows, milliseconds, and the outcome with the reason of a refusal or error. Nothing
 * else of the arguments is kept, so no secret a call carries reaches the file. Lines are appended
 * in order by one thread; days older than {@code keepDays} go, and the oldest days go while the
 * folder holds more than {@code keepBytes}. A line that cannot be written is logged, never a reason
 * to fail the call.
 */
public final class AuditTrail {
  private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);
  private static final int STATEMENT_CHARS = 500;
  private static final int REASON_CHARS = 300;

  private final Path dir;
  private final WorkerExecutor writer;
  private final int keepDays;
  private final long keepBytes;
  private final Map<String, LongAdder> callsByAccount = new ConcurrentHashMap<>();
  private final Queue<Line> pending = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  // the writer thread's own: the open day file
  private LocalDate openDay;
  private Writer out;

  private AuditTrail(Path dir, WorkerExecutor writer, int keepDays, long keepBytes) {
    this.dir = dir;
    this.writer = writer;
    this.keepDays = keepDays;
    this.keepBytes = keepBytes;
  }

  /** A trail that writes to {@code dir}. */
  public static AuditTrail in(Vertx vertx, Path dir, int keepDays, long keepBytes) {
    return new AuditTrail(
        dir, vertx.createSharedWorkerExecutor("sonde-audit", 1), keepDays, keepBytes);
  }

  /** A trail that only counts calls (auditing switched off). */
  public static AuditTrail off() {
    return new AuditTrail(null, null, 0, 0);
  }

  /**
   * Records one call. {@code outcome} is ok, error, refused, cancelled, task or input_required;
   * {@code reason} the refusal or error text, {@code rows} the rows it returned or changed (null
   * when it has none).
   */
  public void called(
      String account,
      String transport,
      String tool,
      JsonObject arguments,
      long startedNanos,
      String outcome,
      String reason,
      Integer rows) {
    callsByAccount.computeIfAbsent(account, a -> new LongAdder()).increment();
    if (writer == null) {
      return;
    }
    Instant now = Instant.now();
    JsonObject line =
        new JsonObject()
            .put("time", now.toString())
            .put("account", account)
            .put("transport", transport)
            .put("tool", tool);
    if (arguments.getValue("connection") instanceof String connection) {
      line.put("connection", connection);
    }
    if (arguments.getValue("sql") instanceof String sql) {
      line.put("sqlSha256", sha256(sql))
          .put("sql", sql.length() > STATEMENT_CHARS ? sql.substring(0, STATEMENT_CHARS) : sql);
    }
    if (rows != null) {
      line.put("rows", rows);
    }
    line.put("ms", (System.nanoTime() - startedNanos) / 1_000_000).put("outcome", outcome);
    if (reason != null) {
      line.put(
          "reason", reason.length() > REASON_CHARS ? reason.substring(0, REASON_CHARS) : reason);
    }
    pending.add(new Line(LocalDate.ofInstant(now, ZoneOffset.UTC), line.encode() + "\n"));
    if (draining.compareAndSet(false, true)) {
      writer
          .executeBlocking(
              () -> {
                drain();
                return null;
              },
              false)
          .onFailure(e -> LOG.warn("audit lines not written: {}", e.getMessage()));
    }
  }

  /** A line waiting for the writer, with the day whose file it belongs in. */
  private record Line(LocalDate day, String text) {}

  /**
   * Writes what is waiting, flushing once per batch: one writer at a time, and a line added while
   * it finishes is taken by it or starts the next.
   */
  private void drain() throws IOException {
    do {
      try {
        for (Line line = pending.poll(); line != null; line = pending.poll()) {
          append(line);
        }
        if (out != null) {
          out.flush();
        }
      } finally {
        draining.set(false);
      }
    } while (!pending.isEmpty() && draining.compareAndSet(false, true));
  }

  /** The calls each account made since start, by account name. */
  public Map<String, Long> callsByAccount() {
    Map<String, Long> counts = new TreeMap<>();
    callsByAccount.forEach((account, count) -> counts.put(account, count.sum()));
    return counts;
  }

  /** Appends to the line's day file, opening it (and pruning) when the day changes. */
  private void append(Line line) throws IOException {
    if (!line.day().equals(openDay)) {
      if (out != null) {
        out.close();
      }
      Files.createDirectories(dir);
      out =
          Files.newBufferedWriter(
              dir.resolve(line.day() + ".jsonl"),
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
      openDay = line.day();
      prune(line.day());
    }
    out.write(line.text());
  }

  /** Drops the days past {@code keepDays}, then the oldest while the trail is over its size. */
  private void prune(LocalDate today) throws IOException {
    List<Path> days;
    try (Stream<Path> files = Files.list(dir)) {
      days = files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList();
    }
    long total = 0;
    for (Path day : days) {
      total += Files.size(day);
    }
    LocalDate oldest = today.minusDays(keepDays - 1L);
    for (Path day : days) {
      String name = day.getFileName().toString();
      boolean tooOld;
      try {
        tooOld =
            LocalDate.parse(name.substring(0, name.length() - ".jsonl".length())).isBefore(oldest);
      } catch (RuntimeException notADay) {
        continue;
      }
      boolean isToday = name.equals(today + ".jsonl");
      if (!isToday && (tooOld || total > keepBytes)) {
        total -= Files.size(day);
        Files.deleteIfExists(day);
      }
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
