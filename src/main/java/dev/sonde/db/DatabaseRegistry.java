package dev.sonde.db;

import dev.sonde.config.SondeConfig;
import dev.sonde.config.SondeConfig.ConnectionConfig;
import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import dev.sonde.db.guard.SqlGuard;
import dev.sonde.jobs.Job;
import dev.sonde.jobs.JobRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The named connections. Each is opened as Sonde starts, except a demo whose data must first be
 * generated: that runs in the background as a job the job view shows, the connection saying so when
 * asked, and {@link #ready()} completes once it is done too. One that cannot be opened is logged,
 * reported by {@link #health()} and retried every 30 s; Sonde runs anyway.
 */
public final class DatabaseRegistry implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseRegistry.class);
  private static final long RETRY_MILLIS = 30_000;

  private final Vertx vertx;
  private final SondeConfig config;
  private final WorkerExecutor workers;
  private final Map<String, Database> open = new ConcurrentHashMap<>();
  private final Map<String, String> failed = new ConcurrentHashMap<>();
  private final Map<String, String> preparing = new ConcurrentHashMap<>();
  private final JobRegistry jobs;
  private final List<Call> generating = new CopyOnWriteArrayList<>();
  private final Promise<Future<Void>> ready = Promise.promise();
  private long retryTimer = -1;

  private DatabaseRegistry(Vertx vertx, SondeConfig config, JobRegistry jobs) {
    this.vertx = vertx;
    this.config = config;
    this.jobs = jobs;
    this.workers = vertx.createSharedWorkerExecutor("sonde-db", config.jobs().workerPoolSize());
  }

  /**
   * Opens every configured connection off the event loop; the future completes once each has been
   * tried, with a first demo generation (tens of seconds) still running behind it, reporting its
   * steps as a job of {@code jobs} (null: to the log only).
   */
  public static Future<DatabaseRegistry> open(Vertx vertx, SondeConfig config, JobRegistry jobs) {
    DatabaseRegistry registry = new DatabaseRegistry(vertx, config, jobs);
    List<Future<Void>> generations = new ArrayList<>();
    return registry
        .workers
        .executeBlocking(
            () -> {
              config
                  .databases()
                  .connections()
                  .forEach(
                      (name, c) -> {
                        if (registry.generatesFirst(c)) {
                          registry.preparing.put(name, GENERATING);
                          generations.add(
                              registry.workers.executeBlocking(
                                  () -> {
                                    registry.tryOpen(name, c);
                                    return null;
                                  },
                                  false));
                        } else {
                          registry.tryOpen(name, c);
                        }
                      });
              return registry;
            },
            false)
        .onSuccess(
            r -> {
              r.ready.complete(Future.join(generations).<Void>mapEmpty().otherwiseEmpty());
              r.retryTimer = vertx.setPeriodic(RETRY_MILLIS, id -> r.retryFailed());
            });
  }

  /** A demo connection whose file does not exist yet: its data is generated before it opens. */
  private boolean generatesFirst(ConnectionConfig c) {
    return c.demo()
        && c.type().equals("duckdb")
        && !c.path().isBlank()
        && !Files.exists(Path.of(duckDbPath(config, c)));
  }

  /** Completes once every connection has been tried, a demo generation included. */
  public Future<Void> ready() {
    return ready.future().compose(generations -> generations);
  }

  private void retryFailed() {
    if (failed.isEmpty()) {
      return;
    }
    workers.executeBlocking(
        () -> {
          new ArrayList<>(failed.keySet())
              .forEach(name -> tryOpen(name, config.databases().connections().get(name)));
          return null;
        },
        false);
  }

  private void tryOpen(String name, ConnectionConfig connection) {
    try {
      open.put(name, withLogins(name, connect(name, connection, null)));
      failed.remove(name);
      preparing.remove(name);
    } catch (Exception e) {
      preparing.remove(name);
      String reason = Database.firstLine(e.getMessage());
      if (!reason.equals(failed.put(name, reason))) {
        LOG.warn(
            "connection {} is not available (retried every {} s): {}",
            name,
            RETRY_MILLIS / 1000,
            reason);
      }
    }
  }

  /**
   * Opens the pools of the accounts {@code database} names with a role or a user of their own: no
   * server session ever serves two identities, so nothing one leaves on a session (its prepared
   * statements, which {@code pg_prepared_statements} lists whatever the role) reaches another. One
   * that cannot log in is refused at use with the reason, and the rest still serve.
   */
  private Database withLogins(String name, Database database) {
    database
        .config()
        .accounts()
        .forEach(
            (key, entry) -> {
              if (!entry.tables().isEmpty()) {
                return;
              }
              ConnectionConfig c = database.config();
              boolean ownUser = !entry.user().isBlank();
              ConnectionConfig own =
                  new ConnectionConfig(
                      c.type(),
                      c.description(),
                      c.url(),
                      c.path(),
                      ownUser ? entry.user() : c.user(),
                      ownUser ? entry.passwordEnv() : c.passwordEnv(),
                      c.demo(),
                      c.maxRows(),
                      c.maxChars(),
                      c.maxSqlLength(),
                      c.queryTimeoutSeconds(),
                      c.readOnly(),
                      c.write(),
                      c.guard(),
                      false,
                      c.memoryLimit(),
                      c.threads(),
                      Map.of());
              try {
                database.login(
                    key, Database.accountOf(connect(name, own, entry.role()), key, entry));
              } catch (Exception e) {
                String reason = Database.firstLine(e.getMessage());
                database.loginFailed(key, reason);
                LOG.warn(
                    "connection {} cannot open the pools of account {}: {}", name, key, reason);
              }
            });
    return database;
  }

  /**
   * Opens {@code c}; {@code accountRole} is the role an account's transactions set ("" for its own
   * login), null for the connection's own login.
   */
  private Database connect(String name, ConnectionConfig c, String accountRole)
      throws SQLException {
    int poolSize = config.jobs().workerPoolSize();
    return switch (c.type()) {
      case "duckdb" -> {
        DuckDbSource source = new DuckDbSource("jdbc:duckdb:" + duckDbPath(config, c), poolSize);
        prepareDuckDb(source, c, s -> generateDemo(name, s));
        yield new Database(vertx, name, c, new DuckDbDialect(), source, null, workers);
      }
      case "jdbc" -> {
        Dialect dialect = jdbcDialect(c.url(), c.queryTimeoutSeconds());
        PooledSource source = jdbcSource(c, dialect, c.url(), c.user(), password(c));
        yield privileged(
            new Database(vertx, name, c, dialect, source, null, workers), source, accountRole);
      }
      case "postgres" -> {
        PostgresUrl url = PostgresUrl.parse(c.url(), c.user(), password(c));
        Dialect dialect = new PostgresDialect(c.queryTimeoutSeconds());
        // the catalog, EXPLAIN and writes stay on JDBC, whose metadata calls the dialect reads
        PooledSource source = jdbcSource(c, dialect, url.jdbcUrl(), url.user(), url.password());
        ReactivePostgres reads =
            new ReactivePostgres(vertx, name, url, poolSize, c.queryTimeoutSeconds());
        yield privileged(
            new Database(vertx, name, c, dialect, source, reads, workers), source, accountRole);
      }
      default -> throw new SQLException("unknown connection type " + c.type());
    };
  }

  /**
   * On PostgreSQL, the role's privileges beyond reading data (superuser, running programs, reading
   * or writing server files), logged once here and shown by health_check; the connection still
   * serves. An account's identity is refused when it may run a function as another role without
   * naming it (see {@link PostgresDialect#unnamedOwnerRights}).
   */
  private static Database privileged(Database database, PooledSource source, String accountRole)
      throws SQLException {
    if (!database.dialectName().equals("postgres")) {
      return database;
    }
    List<String> privileges;
    try (java.sql.Connection c = source.borrow()) {
      privileges = PostgresDialect.privileges(c);
      List<String> unnamed =
          accountRole == null ? List.of() : PostgresDialect.unnamedOwnerRights(c, accountRole);
      if (!unnamed.isEmpty()) {
        throw new SQLException(
            (accountRole.isBlank() ? "the account's login" : "role " + accountRole)
                + " may run "
                + String.join("; ", unnamed)
                + ", each as its owner, without naming it, which the guard cannot refuse; REVOKE"
                + " EXECUTE on each FROM PUBLIC and from the role");
      }
    } catch (SQLException e) {
      database.close();
      throw e;
    }
    database.privileged(privileges);
    if (!privileges.isEmpty()) {
      LOG.warn(
          "connection {} logs in with a role that has {}: the read-only guard and the engine's"
              + " read-only transactions are then its only walls; give it a role without them",
          database.name(),
          privileges);
    }
    return database;
  }

  /** A pool for {@code url}, tried once now so that an unreachable server is reported at start. */
  private PooledSource jdbcSource(
      ConnectionConfig c, Dialect dialect, String url, String user, String password)
      throws SQLException {
    if (SqlGuard.Mode.of(c.guard()) == SqlGuard.Mode.ENGINE_ONLY && !dialect.enforcesReadOnly()) {
      throw new SQLException(
          "guard: engine-only leaves reads to the engine's read-only mode, which "
              + dialect.name()
              + " does not enforce (its driver ignores read-only connections);"
              + " use guard: strict for this connection");
    }
    PooledSource source =
        new PooledSource(
            url,
            user,
            password,
            config.jobs().workerPoolSize(),
            dialect.connectionProperties(),
            dialect.wall());
    try (java.sql.Connection probe = source.borrow()) {
      probe.isValid(5);
      dialect.verify(probe);
    } catch (SQLException | RuntimeException e) {
      source.close();
      throw e;
    }
    return source;
  }

  /** Deletes every demo connection's DuckDB file and generates it again. */
  public static void resetDemo(SondeConfig config) throws SQLException, java.io.IOException {
    for (ConnectionConfig c : config.databases().connections().values()) {
      if (c.demo() && c.type().equals("duckdb") && !c.path().isBlank()) {
        String path = duckDbPath(config, c);
        Files.deleteIfExists(Path.of(path));
        Files.deleteIfExists(Path.of(path + ".wal"));
        try (DuckDbSource source = new DuckDbSource("jdbc:duckdb:" + path, 1)) {
          DemoDatabase.generate(source.root(), LocalDateTime.now(ZoneOffset.UTC));
        }
      }
    }
  }

  /** The DuckDB file of {@code c}, relative paths under the data directory; "" for memory. */
  private static String duckDbPath(SondeConfig config, ConnectionConfig c) {
    if (c.path().isBlank()) {
      return "";
    }
    Path path = Path.of(c.path());
    Path resolved = path.isAbsolute() ? path : Path.of(config.data().dir()).resolve(path);
    try {
      Files.createDirectories(resolved.toAbsolutePath().getParent());
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot create the data directory for " + c.path());
    }
    return resolved.toAbsolutePath().toString();
  }

  /** Held while a DuckDB instance is set up: DuckDB shares one instance per file in a process. */
  private static final Object DUCKDB_SETUP = new Object();

  /**
   * Generates demo data if asked, bounds the instance (memory and threads), shuts its doors to
   * files and the network, and locks its configuration so that no statement can change any of it. A
   * second connection on the same file gets the instance the first set up, with its limits: one at
   * a time, so two generations never create the same tables and macros at once.
   */
  static void prepareDuckDb(DuckDbSource source, ConnectionConfig c) throws SQLException {
    prepareDuckDb(
        source, c, s -> DemoDatabase.generate(s.root(), LocalDateTime.now(ZoneOffset.UTC)));
  }

  /** How a demo database is generated: with its steps shown, or not. */
  interface Generation {
    void run(DuckDbSource source) throws SQLException;
  }

  static void prepareDuckDb(DuckDbSource source, ConnectionConfig c, Generation generation)
      throws SQLException {
    synchronized (DUCKDB_SETUP) {
      // Sonde's own generation first, on every core: the limits are for what callers run
      if (c.demo() && !DemoDatabase.isPresent(source.root())) {
        generation.run(source);
      }
      try (Statement statement = source.root().createStatement()) {
        if (configurationLocked(statement)) {
          return;
        }
        statement.execute("SET memory_limit = '" + duckDbMemoryLimit(c) + "'");
        statement.execute("SET threads = " + duckDbThreads(c));
        statement.execute("SET enable_external_access = false");
        statement.execute("SET lock_configuration = true");
      }
    }
  }

  /** What a connection whose demo data is being generated says when it is asked for. */
  private static final String GENERATING =
      "its demo data is being generated (the job view shows the steps)";

  /** A demo's data generated, each step in the log and, when Sonde has jobs, in the job view. */
  private void generateDemo(String connection, DuckDbSource source) throws SQLException {
    preparing.put(connection, GENERATING);
    AtomicReference<Job> job = new AtomicReference<>();
    Call call =
        new Call(
            "the demo generation of " + connection,
            null,
            Long.MAX_VALUE,
            null,
            (step, message) -> {
              LOG.info("demo generation: {}", message);
              Job shown = job.get();
              if (shown != null) {
                shown.step(step, message);
              }
            });
    if (jobs != null) {
      job.set(
          jobs.start(
              "demo-" + connection + "-" + UUID.randomUUID(), "demo_generation", null, null, call));
    }
    boolean ok = false;
    generating.add(call);
    try {
      DemoDatabase.generate(source.root(), LocalDateTime.now(ZoneOffset.UTC), call);
      ok = true;
    } finally {
      generating.remove(call);
      if (job.get() != null) {
        jobs.finish(
            job.get(), ok, ok ? "the demo database of " + connection + " is ready" : "failed");
      }
    }
  }

  private static boolean configurationLocked(Statement statement) throws SQLException {
    try (java.sql.ResultSet rs =
        statement.executeQuery("SELECT current_setting('lock_configuration')")) {
      rs.next();
      return rs.getBoolean(1);
    }
  }

  /**
   * The connection's {@code memoryLimit}, or a quarter of the machine's memory (at least 256 MiB).
   * DuckDB's memory is outside the JVM's heap, whose own default maximum is another quarter: the
   * two together leave half the machine to everything else. DuckDB's own default is 80 %.
   */
  static String duckDbMemoryLimit(ConnectionConfig c) {
    if (!c.memoryLimit().isBlank()) {
      return c.memoryLimit().replace(" ", "");
    }
    long total =
        ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    return Math.max(256, total / 4 / (1024 * 1024)) + "MiB";
  }

  /**
   * The connection's {@code threads}, or half the cores (at least one): one statement cannot take
   * every core from the event loops and the other workers.
   */
  static int duckDbThreads(ConnectionConfig c) {
    return c.threads() > 0
        ? c.threads()
        : Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
  }

  private static Dialect jdbcDialect(String url, int timeoutSeconds) {
    if (url.startsWith("jdbc:postgresql:")) {
      return new PostgresDialect(timeoutSeconds);
    }
    if (url.startsWith("jdbc:mysql:") || url.startsWith("jdbc:mariadb:")) {
      return new MySqlDialect(timeoutSeconds);
    }
    if (url.startsWith("jdbc:sqlite:")) {
      return new SqliteDialect();
    }
    if (url.startsWith("jdbc:h2:")) {
      return new H2Dialect();
    }
    return new Dialect() {
      @Override
      public String name() {
        return "jdbc";
      }
    };
  }

  private static String password(ConnectionConfig c) {
    return c.passwordEnv().isBlank() ? "" : System.getenv().getOrDefault(c.passwordEnv(), "");
  }

  /**
   * The named connection (the default one when {@code name} is null or empty) as {@code account}'s
   * reads see it: its role, own login or allow-list (null for Sonde's own work: the login).
   */
  public Database get(String name, String account) {
    return own(name).as(account);
  }

  /** The named connection as it logs in, for Sonde's own work (rollups, tag lists, bootstraps). */
  public Database own(String name) {
    String wanted = name == null || name.isBlank() ? config.databases().defaultConnection() : name;
    Database database = open.get(wanted);
    if (database != null) {
      return database;
    }
    String preparation = preparing.get(wanted);
    if (preparation != null) {
      throw new CallerException(
          "connection "
              + Quote.of(wanted)
              + " is not ready yet: "
              + preparation
              + "; try again in a few seconds");
    }
    if (failed.containsKey(wanted)) {
      throw new CallerException(
          "connection "
              + Quote.of(wanted)
              + " is not available right now ("
              + failed.get(wanted)
              + "); it is retried every "
              + RETRY_MILLIS / 1000
              + " s");
    }
    throw new CallerException(
        "unknown connection "
            + Quote.of(wanted)
            + "; use one of "
            + new TreeMap<>(config.databases().connections()).keySet());
  }

  /** Whether {@code name} is open now. */
  public boolean isOpen(String name) {
    return open.containsKey(name);
  }

  public List<String> names() {
    return new ArrayList<>(new TreeMap<>(config.databases().connections()).keySet());
  }

  /** Each connection: ok, server version, round-trip ms and pool use, or why it is unavailable. */
  public Future<JsonObject> health() {
    List<String> names = names();
    List<Future<JsonObject>> checks =
        names.stream()
            .map(
                n ->
                    open.containsKey(n)
                        ? open.get(n).health()
                        : Future.succeededFuture(
                            new JsonObject()
                                .put("ok", false)
                                .put(
                                    "error",
                                    preparing.containsKey(n)
                                        ? "not ready yet: " + preparing.get(n)
                                        : failed.getOrDefault(n, "not opened"))))
            .toList();
    return Future.join(checks)
        .transform(
            ar -> {
              JsonObject out = new JsonObject();
              for (int i = 0; i < names.size(); i++) {
                out.put(names.get(i), checks.get(i).result());
              }
              return Future.succeededFuture(out);
            });
  }

  /** Stops a demo generation still running: it is rolled back at its next statement. */
  public void stopGenerating() {
    generating.forEach(call -> call.stop("Sonde is stopping"));
  }

  @Override
  public void close() {
    stopGenerating();
    if (retryTimer >= 0) {
      vertx.cancelTimer(retryTimer);
    }
    open.values().forEach(Database::close);
    workers.close();
  }
}
