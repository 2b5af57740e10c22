package dev.sonde.auth;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON line per tool call in {@code <data>/audit/<yyyy-MM-dd>.jsonl} (UTC days): when, which
 * account (and the id of its API token, never the token) on which transport, the tool, its
 * connection, the statement's SHA-256 and first 500 characters, rows, milliseconds, and the outcome
 * with the reason of a refusal or error. Nothing else of the arguments is kept, so no secret a call
 * carries reaches the file. A call costs its caller a queue insert; the writer thread turns the
 * waiting calls into lines every 200 ms and on close, in order. Days older than {@code keepDays}
 * go, and the oldest days go while the folder holds more than {@code keepBytes}. A line that cannot
 * be written is logged, never a reason to fail the call.
 */
public final class AuditTrail {
  private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);
  private static final int STATEMENT_CHARS = 500;
  private static final int REASON_CHARS = 300;
  private static final long FLUSH_MILLIS = 200;
  private static final JsonFactory JSON = new JsonFactory();

  private final Path dir;
  private final WorkerExecutor writer;
  private final BiFunction<String, String, String> databaseRoles;
  private final int keepDays;
  private final long keepBytes;
  private final Map<String, LongAdder> callsByAccount = new ConcurrentHashMap<>();
  private final Queue<Entry> pending = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  // the writer thread's own: the open day file
  private LocalDate openDay;
  private JsonGenerator json;

  private AuditTrail(
      Path dir,
      WorkerExecutor writer,
      int keepDays,
      long keepBytes,
      BiFunction<String, String, String> databaseRoles) {
    this.dir = dir;
    this.databaseRoles = databaseRoles;
    this.writer = writer;
    this.keepDays = keepDays;
    this.keepBytes = keepBytes;
  }

  /**
   * A trail that writes to {@code dir}, the waiting lines every {@code FLUSH_MILLIS}; {@code
   * databaseRoles} names the role or user an account's reads run as on a connection (null for the
   * connection's login, or a null connection for the default one).
   */
  public static AuditTrail in(
      Vertx vertx,
      Path dir,
      int keepDays,
      long keepBytes,
      BiFunction<String, String, String> databaseRoles) {
    AuditTrail trail =
        new AuditTrail(
            dir,
            vertx.createSharedWorkerExecutor("sonde-audit", 1),
            keepDays,
            keepBytes,
            databaseRoles);
    vertx.setPeriodic(FLUSH_MILLIS, id -> trail.flush());
    return trail;
  }

  /** A trail that only counts calls (auditing switched off). */
  public static AuditTrail off() {
    return new AuditTrail(null, null, 0, 0, (connection, account) -> null);
  }

  /**
   * Records one call. {@code outcome} is ok, error, refused, cancelled, task or input_required;
   * {@code reason} the refusal or error text, {@code rows} the rows it returned or changed (null
   * when it has none). The caller pays a queue insert; the line is written by the writer thread.
   */
  public void called(
      Principal principal,
      String transport,
      String tool,
      JsonObject arguments,
      long startedNanos,
      String outcome,
      String reason,
      Integer rows) {
    callsByAccount.computeIfAbsent(principal.account(), a -> new LongAdder()).increment();
    if (writer != null) {
      String connection = arguments.getValue("connection") instanceof String c ? c : null;
      String sql = arguments.getValue("sql") instanceof String s ? s : null;
      pending.add(
          new Entry(
              System.currentTimeMillis(),
              principal.account(),
              principal.tokenId(),
              transport,
              tool,
              connection,
              // named where the call reads a database: it names a connection, or runs SQL
              connection != null || sql != null
                  ? databaseRoles.apply(connection, principal.account())
                  : null,
              sql,
              rows,
              (System.nanoTime() - startedNanos) / 1_000_000,
              outcome,
              reason));
    }
  }

  /** Writes what is waiting now, on the writer thread; done when it is on disk. */
  public Future<Void> flush() {
    if (writer == null || pending.isEmpty() || !draining.compareAndSet(false, true)) {
      return Future.succeededFuture();
    }
    return writer
        .<Void>executeBlocking(
            () -> {
              try {
                drain();
              } finally {
                draining.set(false);
              }
              return null;
            },
            false)
        .onFailure(e -> LOG.warn("audit lines not written: {}", e.getMessage()));
  }

  /** One call, as the caller saw it; turned into its line on the writer thread. */
  private record Entry(
      long millis,
      String account,
      String tokenId,
      String transport,
      String tool,
      String connection,
      String databaseRole,
      String sql,
      Integer rows,
      long ms,
      String outcome,
      String reason) {}

  private void drain() throws IOException {
    for (Entry entry = pending.poll(); entry != null; entry = pending.poll()) {
      append(entry);
    }
    if (json != null) {
      json.flush();
    }
  }

  /** The calls each account made since start, by account name. */
  public Map<String, Long> callsByAccount() {
    Map<String, Long> counts = new TreeMap<>();
    callsByAccount.forEach((account, count) -> counts.put(account, count.sum()));
    return counts;
  }

  /** Writes one line to its day's file, opening it (and pruning) when the day changes. */
  private void append(Entry entry) throws IOException {
    LocalDate day = LocalDate.ofEpochDay(Math.floorDiv(entry.millis(), 86_400_000L));
    if (!day.equals(openDay)) {
      if (json != null) {
        json.close();
      }
      ownerOnly(dir);
      json =
          JSON.createGenerator(
              Files.newBufferedWriter(
                  dir.resolve(day + ".jsonl"),
                  StandardCharsets.UTF_8,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.APPEND));
      // one line per call, closed by its own newline: a file reopened later appends whole lines
      json.setRootValueSeparator(null);
      openDay = day;
      prune(day);
    }
    json.writeStartObject();
    json.writeStringField("time", Instant.ofEpochMilli(entry.millis()).toString());
    json.writeStringField("account", entry.account());
    if (entry.tokenId() != null) {
      json.writeStringField("tokenId", entry.tokenId());
    }
    json.writeStringField("transport", entry.transport());
    json.writeStringField("tool", entry.tool());
    if (entry.connection() != null) {
      json.writeStringField("connection", entry.connection());
    }
    if (entry.databaseRole() != null) {
      json.writeStringField("databaseRole", entry.databaseRole());
    }
    if (entry.sql() != null) {
      json.writeStringField("sqlSha256", sha256(entry.sql()));
      json.writeStringField("sql", cut(entry.sql(), STATEMENT_CHARS));
    }
    if (entry.rows() != null) {
      json.writeNumberField("rows", entry.rows());
    }
    json.writeNumberField("ms", entry.ms());
    json.writeStringField("outcome", entry.outcome());
    if (entry.reason() != null) {
      json.writeStringField("reason", cut(entry.reason(), REASON_CHARS));
    }
    json.writeEndObject();
    json.writeRaw('\n');
  }

  private static String cut(String text, int chars) {
    return text.length() > chars ? text.substring(0, chars) : text;
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

  /** The folder, readable by Sonde's user alone: its lines hold every account's statements. */
  private static void ownerOnly(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    try {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      Files.createDirectories(dir);
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
