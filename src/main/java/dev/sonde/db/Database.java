package dev.sonde.db;

import dev.sonde.config.SondeConfig.AccountIdentityConfig;
import dev.sonde.config.SondeConfig.ConnectionConfig;
import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.CancelledException;
import dev.sonde.core.Quote;
import dev.sonde.db.guard.FunctionJudge;
import dev.sonde.db.guard.FunctionPolicy;
import dev.sonde.db.guard.SqlGuard;
import dev.sonde.db.guard.TableJudge;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One named connection: its limits, its dialect and its connections. Every read runs on a worker
 * thread inside the engine's read-only mode and is rolled back; an SQL error becomes a {@link
 * CallerException} the caller can act on.
 */
public final class Database {
  private final String name;
  private final ConnectionConfig config;
  private final Dialect dialect;
  private final ConnectionSource source;
  private final WorkerExecutor workers;
  private final Vertx vertx;
  private final SqlGuard.Mode guardMode;
  private final TextCache<String> acceptedReads = new TextCache<>();

  /** How reads are shaped to cut long values, kept per client: each names types its own way. */
  private final TextCache<ReadShape> jdbcShapes = new TextCache<>();

  private final TextCache<ReadShape> reactiveShapes = new TextCache<>();
  private volatile FunctionPolicy functions;
  private volatile long functionsReadAt;
  private static final long CATALOGUE_REREAD_MILLIS = 5_000;
  private final ReactivePostgres reactive;
  private volatile List<String> privileged = List.of();

  /** The connection's own login; this object itself for the connection as it logs in. */
  private final Database own;

  /** Whom the database sees when reads run here: the login, a role, a user, an allow-list. */
  private final AccountIdentity identity;

  /** The connection as each account's identity sees it, made on first use (on the login only). */
  private final Map<String, Database> asAccounts = new ConcurrentHashMap<>();

  /** Accounts with pools of their own (a role or a user): opened with it (on the login only). */
  private final Map<String, Database> logins = new ConcurrentHashMap<>();

  /** Why an account's own login could not be opened, by its key under {@code accounts}. */
  private final Map<String, String> loginFailures = new ConcurrentHashMap<>();

  /** Statements the engine did not stop, whose discarded connections are still busy. */
  private final AtomicInteger runaways = new AtomicInteger();

  /**
   * Texts whose result the reactive client cannot decode (oid, xml read as written): JDBC reads
   * them.
   */
  private final TextCache<Boolean> jdbcOnly = new TextCache<>();

  /** {@code reactive}, when given, runs the connection's queries; the rest goes through JDBC. */
  Database(
      Vertx vertx,
      String name,
      ConnectionConfig config,
      Dialect dialect,
      ConnectionSource source,
      ReactivePostgres reactive,
      WorkerExecutor workers) {
    this.vertx = vertx;
    this.reactive = reactive;
    this.name = name;
    this.config = config;
    this.dialect = dialect;
    this.source = source;
    this.workers = workers;
    this.guardMode = SqlGuard.Mode.of(config.guard());
    this.own = this;
    this.identity = AccountIdentity.LOGIN;
  }

  /**
   * The connection as {@code identity} sees it, on {@code from}'s pools: an account's view of the
   * login {@code own}, or (with {@code own} null) an account's own login, opened as {@code from}.
   */
  private Database(Database from, Database own, AccountIdentity identity) {
    this.vertx = from.vertx;
    this.reactive = from.reactive;
    this.name = from.name;
    this.config = from.config;
    this.dialect = from.dialect;
    this.source = from.source;
    this.workers = from.workers;
    this.guardMode = from.guardMode;
    this.privileged = from.privileged;
    this.own = own == null ? this : own;
    this.identity = identity;
  }

  /**
   * {@code opened}, on pools of its own, as the identity of {@code entry} ({@code key} in
   * accounts): its user's login, or the connection's login setting its role.
   */
  static Database accountOf(Database opened, String key, AccountIdentityConfig entry) {
    return new Database(
        opened,
        null,
        entry.user().isBlank()
            ? AccountIdentity.of(key, entry)
            : AccountIdentity.user(key, entry.user()));
  }

  /**
   * The connection as {@code account}'s reads see it: itself when it maps no accounts (or for
   * Sonde's own work, a null account); else the account's role, own login or allow-list, or the
   * entry {@code *} for accounts it does not name. An account it has no entry for may not use it.
   */
  public Database as(String account) {
    if (account == null || own.config.accounts().isEmpty()) {
      return own;
    }
    String key = own.config.accounts().containsKey(account) ? account : "*";
    AccountIdentityConfig entry = own.config.accounts().get(key);
    if (entry == null) {
      throw new CallerException(
          name
              + ": account "
              + Quote.of(account)
              + " has no database identity on this connection; an operator gives it one under"
              + " databases.connections."
              + name
              + ".accounts");
    }
    if (entry.tables().isEmpty()) {
      Database login = own.logins.get(key);
      if (login == null) {
        throw new CallerException(
            name
                + ": the database identity of account "
                + Quote.of(account)
                + " is not available ("
                + own.loginFailures.getOrDefault(key, "not opened")
                + ")");
      }
      return login;
    }
    return own.asAccounts.computeIfAbsent(
        key, k -> new Database(this, own, AccountIdentity.of(k, entry)));
  }

  /** Adds the connection as an account with pools of its own ({@code key} under accounts). */
  void login(String key, Database login) {
    logins.put(key, login);
  }

  /** Notes why the login of {@code key} under accounts could not be opened. */
  void loginFailed(String key, String reason) {
    loginFailures.put(key, reason);
  }

  /** The connection as its own login, whatever identity this object reads as. */
  public Database own() {
    return own;
  }

  /**
   * Whether reads here run as the connection's login (with or without an allow-list), so what Sonde
   * derived from its tables as that login (rollups) may answer them.
   */
  public boolean readsAsItsLogin() {
    return identity == AccountIdentity.LOGIN || identity.allowList() != null;
  }

  /** Names what reads here see: the connection, and the account entry whose identity they use. */
  public String identityKey() {
    return identity == AccountIdentity.LOGIN ? name : name + "/" + identity.key();
  }

  /** The role or user reads run as for an account, for the audit trail; null for the login. */
  public String databaseRole() {
    return identity.described();
  }

  /** Makes {@code c}'s transaction act as this identity's role, when it has one. */
  private void actAs(Connection c) throws SQLException {
    if (identity.role() != null) {
      try (Statement st = c.createStatement()) {
        st.execute(setRole());
      }
    }
  }

  private String setRole() {
    return "SET LOCAL ROLE " + dialect.quote(identity.role());
  }

  /** Begins a read on {@code c} as this identity. */
  private void beginRead(Connection c) throws SQLException {
    dialect.beginRead(c);
    actAs(c);
  }

  public String name() {
    return name;
  }

  public ConnectionConfig config() {
    return config;
  }

  /** The role's privileges beyond reading data, found when the connection opened. */
  void privileged(List<String> privileges) {
    this.privileged = List.copyOf(privileges);
  }

  public List<String> privileged() {
    return privileged;
  }

  public String dialectName() {
    return dialect.name();
  }

  /**
   * Runs read-only work on a worker, inside the engine's read-only mode. For Sonde's own SQL, built
   * from catalog names and numbers, never from a caller's text: that goes through {@link #query}.
   */
  public <T> Future<T> read(SqlWork<T> work) {
    return workers.executeBlocking(
        () -> {
          try (Connection connection = source.borrow()) {
            beginRead(connection);
            try {
              return work.run(connection);
            } finally {
              dialect.endRead(connection);
            }
          } catch (SQLException e) {
            throw new CallerException(name + ": " + dialect.errorText(e));
          }
        },
        false);
  }

  /**
   * {@link #read} for work a caller waits on (a chart's buckets, a profile): stopping {@code call}
   * cancels the statement the work is running, and the read fails with the call's reason.
   */
  public <T> Future<T> read(SqlWork<T> work, Call call) {
    if (call.isStopped()) {
      return Future.failedFuture(new CancelledException(call.stopReason()));
    }
    return workers.executeBlocking(
        () -> {
          try (Connection connection = source.borrow()) {
            StoppableConnection stoppable = new StoppableConnection(connection);
            Runnable unhook = call.onStop(stoppable::cancelAll);
            beginRead(connection);
            try {
              call.checkpoint();
              return work.run(stoppable.view());
            } catch (SQLException e) {
              if (call.isStopped()) {
                throw new CancelledException(call.stopReason());
              }
              throw e;
            } finally {
              unhook.run();
              dialect.endRead(connection);
            }
          } catch (SQLException e) {
            throw new CallerException(name + ": " + dialect.errorText(e));
          }
        },
        false);
  }

  /**
   * Sonde's own change to its own tables (rollups), in one transaction, on a connection that allows
   * it ({@code rollups: true}); never a caller's SQL.
   */
  public <T> Future<T> maintain(SqlWork<T> work) {
    if (!config.rollups()) {
      return Future.failedFuture(
          new CallerException("connection '" + name + "' does not let Sonde create tables"));
    }
    return workers.executeBlocking(
        () -> {
          try (Connection connection = source.borrow()) {
            dialect.beginWrite(connection);
            try {
              T result = work.run(connection);
              connection.commit();
              return result;
            } catch (SQLException | RuntimeException e) {
              connection.rollback();
              throw e;
            } finally {
              connection.setAutoCommit(true);
            }
          } catch (SQLException e) {
            throw new CallerException(name + ": " + dialect.errorText(e));
          }
        },
        false);
  }

  /** The table's name as the engine wants it in SQL, quoted from its parts. */
  public String quoted(TableRef table) {
    return dialect.quoted(table);
  }

  /** One identifier, quoted for the engine. */
  public String quote(String identifier) {
    return dialect.quote(identifier);
  }

  static String firstLine(String message) {
    if (message == null) {
      return "database error";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /**
   * Runs one guarded read and shapes its result. Stopping {@code call} stops the running statement;
   * the connection's timeout stops it too.
   */
  public Future<JsonObject> query(QueryRequest request, Call call) {
    // a table changed under a statement the connection had prepared: one more try prepares anew
    return attempt(request, call)
        .recover(
            e ->
                e instanceof StalePlan
                    ? attempt(request, call)
                        .recover(
                            again ->
                                Future.failedFuture(
                                    again instanceof StalePlan stale ? stale.reported() : again))
                    : Future.failedFuture(e));
  }

  private Future<JsonObject> attempt(QueryRequest request, Call call) {
    int maxRows = Math.max(1, Math.min(request.limit(), config.maxRows()));
    ValueRenderer renderer = new ValueRenderer(request.timeFormat(), request.zone());
    if (reactive != null && jdbcOnly.get(request.sql()) == null) {
      return reactiveQuery(request, maxRows, renderer, call)
          .recover(
              e -> {
                if (!(e instanceof ReactivePostgres.NeedsJdbc)) {
                  return Future.failedFuture(e);
                }
                jdbcOnly.keep(request.sql(), true);
                return jdbcQuery(request, maxRows, renderer, call);
              });
    }
    return jdbcQuery(request, maxRows, renderer, call);
  }

  /** The read through JDBC: every engine but PostgreSQL's reactive client. */
  private Future<JsonObject> jdbcQuery(
      QueryRequest request, int maxRows, ValueRenderer renderer, Call call) {
    StatementStop stop = StatementStop.forRead(vertx, config.queryTimeoutSeconds());
    return watchedRead(
        stop,
        c -> {
          // armed before the statement is prepared: DuckDB folds constant calls while preparing
          AtomicReference<Statement> running = new AtomicReference<>();
          stop.arm(() -> cancelQuietly(running.get()), call);
          try {
            stop.refuseIfStopped();
            String sql = checkRead(request.sql(), c);
            long start = System.nanoTime();
            // each stale statement the driver had prepared fails once, then is prepared anew
            for (int tries = 1; ; tries++) {
              try {
                return result(
                    shapedRead(c, sql, renderer, maxRows, running, stop), request, maxRows, start);
              } catch (StalePlan stale) {
                // answered here: another connection's try would repeat these
                if (stop.reason() != null) {
                  throw stop.reason();
                }
                if (tries == STALE_TRIES) {
                  throw stale.reported();
                }
                dialect.endRead(c);
                beginRead(c);
              }
            }
          } catch (SQLException e) {
            CallerException stopped = stop.reason();
            if (stopped != null) {
              throw stopped;
            }
            if ("02000".equals(e.getSQLState())) {
              throw noResultSet();
            }
            throw e;
          } finally {
            stop.disarm();
          }
        });
  }

  /**
   * Tries of one read on one connection: a kept shape, then the read and its shape, prepared anew.
   */
  private static final int STALE_TRIES = 3;

  /**
   * One read on {@code c} through JDBC, sent as its kept shape, or described and shaped now; a
   * {@link StalePlan} when a statement prepared before no longer fits the read's columns.
   */
  private Fetched shapedRead(
      Connection c,
      String sql,
      ValueRenderer renderer,
      int maxRows,
      AtomicReference<Statement> running,
      StatementStop stop)
      throws SQLException {
    ReadShape kept = jdbcShapes.get(sql);
    if (kept != null) {
      try (PreparedStatement shaped = c.prepareStatement(dialect.forPrepare(kept.text()))) {
        running.set(shaped);
        return kept.settle(jdbcShapes, sql, fetched(shaped, renderer, maxRows, kept));
      } catch (SQLException e) {
        if (stop.reason() != null) {
          throw e;
        }
        if (dialect.isChangedColumns(e.getSQLState())) {
          // the read's columns changed since its shape was kept: described afresh
          jdbcShapes.forget(sql);
        }
        throw staleOr(e, true);
      }
    }
    try {
      // prepared, not a plain Statement: DuckDB's JDBC 1.5 hides a plain statement's error
      PreparedStatement prepared = c.prepareStatement(dialect.forPrepare(sql));
      running.set(prepared);
      // asked only where values are cut: SQLite's driver fails on a statement without rows
      ResultSetMetaData described = dialect.cutsLongValues() ? prepared.getMetaData() : null;
      ReadShape shape =
          described != null
              ? dialect.shape(sql, columns(described), config.maxChars() + 1)
              : ReadShape.asWritten(sql);
      if (shape.cuts()) {
        try (PreparedStatement shaped = c.prepareStatement(dialect.forPrepare(shape.text()))) {
          running.set(shaped);
          Fetched fetched = fetched(shaped, renderer, maxRows, shape);
          prepared.close();
          return shape.settle(jdbcShapes, sql, fetched);
        } catch (SQLException e) {
          if (stop.reason() != null || dialect.isStalePlan(e)) {
            throw e;
          }
          // the engine would not read this text wrapped (SHOW, say): as written, afresh
          dialect.endRead(c);
          beginRead(c);
          prepared.close();
          prepared = c.prepareStatement(dialect.forPrepare(sql));
          running.set(prepared);
          shape = ReadShape.asWritten(sql);
        }
      }
      // nothing to cut: read as written, through the statement just described
      try (PreparedStatement statement = prepared) {
        return shape.settle(jdbcShapes, sql, fetched(statement, renderer, maxRows, shape));
      }
    } catch (SQLException e) {
      throw stop.reason() != null ? e : staleOr(e, false);
    }
  }

  /**
   * {@code e} as a {@link StalePlan} when a statement the driver had prepared went stale, or a kept
   * shape's check failed.
   */
  private SQLException staleOr(SQLException e, boolean keptShape) {
    if (dialect.isStalePlan(e) || (keptShape && dialect.isChangedColumns(e.getSQLState()))) {
      throw new StalePlan(new CallerException(name + ": " + dialect.errorText(e)));
    }
    return e;
  }

  /** How long a stopped statement may take to end before its connection is discarded. */
  static final long RUNAWAY_GRACE_MILLIS = 3_000;

  /**
   * A read like {@link #read} whose {@code stop} can give up on it: when the engine has not ended
   * the stopped statement within {@link #RUNAWAY_GRACE_MILLIS}, the caller is answered at once and
   * the connection is discarded (a network driver's is closed now, which ends its wait; an embedded
   * engine's is closed when the call returns, never under it).
   */
  private <T> Future<T> watchedRead(StatementStop stop, SqlWork<T> work) {
    Promise<T> answer = Promise.promise();
    AtomicReference<Connection> borrowed = new AtomicReference<>();
    AtomicBoolean discarded = new AtomicBoolean();
    boolean embedded = source instanceof DuckDbSource;
    stop.onRunaway(
        RUNAWAY_GRACE_MILLIS,
        () -> {
          if (discarded.compareAndSet(false, true)) {
            runaways.incrementAndGet();
            answer.tryFail(stop.runawayReason(name));
            Connection c = borrowed.get();
            if (c != null && !embedded) {
              abandon(c);
            }
          }
        });
    workers
        .<T>executeBlocking(
            () -> {
              Connection connection = source.borrow();
              borrowed.set(connection);
              try {
                beginRead(connection);
                try {
                  return work.run(connection);
                } finally {
                  if (!discarded.get()) {
                    dialect.endRead(connection);
                  }
                }
              } catch (SQLException e) {
                throw new CallerException(name + ": " + dialect.errorText(e));
              } finally {
                if (discarded.get()) {
                  abandon(connection);
                  runaways.decrementAndGet();
                } else {
                  connection.close();
                }
              }
            },
            false)
        .onComplete(
            ar -> {
              if (ar.succeeded()) {
                answer.tryComplete(ar.result());
              } else {
                answer.tryFail(ar.cause());
              }
            });
    return answer.future();
  }

  /**
   * The same read on the reactive PostgreSQL client. A text the guard accepted recently is checked
   * on the event loop; a new one is parsed on a worker, since a long statement takes a while.
   */
  private Future<JsonObject> reactiveQuery(
      QueryRequest request, int maxRows, ValueRenderer renderer, Call call) {
    String accepted = acceptedReads.get(request.sql());
    Future<String> statement =
        accepted != null
            ? Future.succeededFuture(accepted)
            // no JDBC connection to lend the guard: PostgreSQL offers it no engine parser
            : workers.executeBlocking(() -> checkRead(request.sql(), null), false);
    return statement.compose(
        sql -> {
          long start = System.nanoTime();
          ReactivePostgres.Read read =
              new ReactivePostgres.Read(
                  this,
                  sql,
                  reactiveShapes.get(sql),
                  reactiveShapes,
                  described -> dialect.shape(sql, described, config.maxChars() + 1),
                  maxRows + 1,
                  renderer,
                  StatementStop.forRead(vertx, config.queryTimeoutSeconds()),
                  identity.role() == null ? null : setRole());
          return reactive
              .fetch(read, call)
              .map(fetched -> result(fetched, request, maxRows, start));
        });
  }

  /** A read that failed because a statement the connection had prepared no longer fits. */
  static final class StalePlan extends RuntimeException {
    private final CallerException reported;

    StalePlan(CallerException reported) {
      super(reported.getMessage(), null, false, false);
      this.reported = reported;
    }

    CallerException reported() {
      return reported;
    }
  }

  /** For a statement such as SET, which the engine ran but which has no rows to show. */
  CallerException noResultSet() {
    return new CallerException(
        name + ": the statement returned no rows to show; execute_query runs queries");
  }

  /**
   * The one statement {@code sql} may run as a read here, or a refusal saying why not. A text that
   * calls a name the function catalogue does not list is not kept as accepted: it must be judged
   * again once the catalogue is read again.
   */
  private String checkRead(String sql, Connection c) {
    String accepted = acceptedReads.get(sql);
    if (accepted != null) {
      return accepted;
    }
    boolean[] unknownName = {false};
    String statement =
        SqlGuard.checkRead(
            sql,
            dialect.guardProfile(),
            guardMode,
            config.maxSqlLength(),
            dialect.engineParser(c),
            new FunctionJudge() {
              @Override
              public String refusal(String called) {
                FunctionPolicy policy = functions(c, called);
                unknownName[0] |= !policy.knows(called);
                return identity.allowList() != null && policy.isUserMacro(called)
                    ? called
                        + "() is not allowed: it is a macro, whose body may read tables your"
                        + " account may not; query the tables directly"
                    : policy.refusal(called);
              }

              @Override
              public String nameRefusal(String named) {
                // the catalogue as last read: most names are columns and tables, never read for;
                // an allow-list's reads see a type created since, once the catalogue is read again
                FunctionPolicy known = functions;
                FunctionPolicy policy =
                    known != null && identity.allowList() == null ? known : functions(c, named);
                return identity.allowList() != null && policy.isUserType(named)
                    ? named
                        + " is not allowed: it is a type created in the database, whose definition"
                        + " is the catalogue's (an ENUM's labels), not your tables'; compare the"
                        + " column with text instead"
                    : policy.nameRefusal(named);
              }
            },
            identity.allowList() == null ? TableJudge.ANY : tableJudge(c));
    if (identity.allowList() != null) {
      checkPlan(c, statement);
    }
    if (!unknownName[0]) {
      acceptedReads.keep(sql, statement);
    }
    return statement;
  }

  /**
   * The function policy from the engine's catalogue, read on first use (on {@code c}, or a borrowed
   * connection when the guard runs without one) and read again, at most every {@link
   * #CATALOGUE_REREAD_MILLIS}, when a read calls a name it does not list: a function created since
   * is judged once the catalogue is read again. Until then an unknown name passes to the engine,
   * which refuses names that do not exist; most are keywords the lexer took for calls (IN, USING).
   */
  private FunctionPolicy functions(Connection c, String calledName) {
    FunctionPolicy known = functions;
    if (current(known, calledName)) {
      return known;
    }
    synchronized (this) {
      // another read may have read the catalogue while this one waited
      if (!current(functions, calledName)) {
        try {
          if (c != null) {
            functions = dialect.functionPolicy(c);
          } else {
            try (Connection borrowed = source.borrow()) {
              functions = dialect.functionPolicy(borrowed);
            }
          }
          functionsReadAt = System.nanoTime();
        } catch (SQLException e) {
          throw new CallerException(
              name
                  + ": the guard could not read the engine's function catalogue: "
                  + dialect.errorText(e));
        }
      }
      return functions;
    }
  }

  /** Whether {@code policy} may judge {@code calledName}: it lists it, or was read just now. */
  private boolean current(FunctionPolicy policy, String calledName) {
    return policy != null
        && (policy.knows(calledName)
            || System.nanoTime() - functionsReadAt < CATALOGUE_REREAD_MILLIS * 1_000_000);
  }

  /**
   * The guard's verdict on a read without running it: the one statement it would run, or a {@link
   * CallerException} saying what was refused (chat_bi validates generated SQL with it).
   */
  public Future<String> guard(String sql) {
    // JDBC engines check with their own parser, which needs a connection
    return reactive != null
        ? workers.executeBlocking(() -> checkRead(sql, null), false)
        : read(c -> checkRead(sql, c));
  }

  /**
   * The plan of a guarded read as text, capped at the connection's character budget. With {@code
   * analyze} the statement runs, so the timeout and the caller's cancellation stop it as they stop
   * a query.
   */
  public Future<JsonObject> explain(String sql, boolean analyze, Call call) {
    StatementStop stop = StatementStop.forRead(vertx, config.queryTimeoutSeconds());
    return watchedRead(
        stop,
        c -> {
          AtomicReference<Statement> running = new AtomicReference<>();
          stop.arm(() -> cancelQuietly(running.get()), call);
          StringBuilder plan = new StringBuilder();
          try {
            stop.refuseIfStopped();
            String statement = checkRead(sql, c);
            try (PreparedStatement st =
                c.prepareStatement(dialect.forPrepare(dialect.explain(statement, analyze)))) {
              running.set(st);
              try (ResultSet rs = st.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next() && plan.length() <= config.maxChars()) {
                  for (int i = 1; i <= columns; i++) {
                    String part = rs.getString(i);
                    if (part != null && !(columns > 1 && i == 1 && part.endsWith("_plan"))) {
                      plan.append(part).append(i < columns ? "  " : "");
                    }
                  }
                  plan.append('\n');
                }
              }
            }
          } catch (SQLException e) {
            CallerException stopped = stop.reason();
            if (stopped != null) {
              throw stopped;
            }
            throw e;
          } finally {
            stop.disarm();
          }
          boolean truncated = plan.length() > config.maxChars();
          return new JsonObject()
              .put("plan", Quote.cut(plan.toString(), config.maxChars()))
              .put("analyze", analyze)
              .put("truncated", truncated);
        });
  }

  /**
   * Runs one guarded INSERT, UPDATE, DELETE or MERGE in its own transaction: committed when it
   * succeeds, rolled back when it fails. A commit that does not answer in time discards the
   * connection and says the outcome is unknown.
   */
  public Future<JsonObject> write(String sql, Call call) {
    return write(sql, call, true);
  }

  /**
   * Runs the write as {@link #write} does but rolls it back: how many rows it changes now, with
   * nothing changed (sequences it draws from still advance, as any rolled-back write leaves them).
   * Where a rollback may not undo it (MySQL, MariaDB) the statement is only checked, and the answer
   * has no {@code affected_rows}.
   */
  public Future<JsonObject> rehearseWrite(String sql, Call call) {
    return write(sql, call, false);
  }

  private Future<JsonObject> write(String sql, Call call, boolean commit) {
    if (!config.write()) {
      return Future.failedFuture(
          new CallerException(
              "connection '"
                  + name
                  + "' does not allow writes;"
                  + " an operator can set write: true (and readOnly: false) for it"));
    }
    if (identity.allowList() != null) {
      return Future.failedFuture(
          new CallerException(
              name
                  + ": ERROR: permission denied: your account reads this connection through a"
                  + " list of tables, which grants no writes"));
    }
    return workers.executeBlocking(
        () -> {
          String statement =
              SqlGuard.checkWrite(
                  sql,
                  dialect.guardProfile(),
                  config.maxSqlLength(),
                  called -> functions(null, called).refusal(called));
          if (!commit && !dialect.rollsBackEveryWrite()) {
            // a rehearsal here could keep what it changed: nothing is run, nothing is counted
            return new JsonObject().put("committed", false);
          }
          Connection c = source.borrow();
          boolean discard = false;
          try (Statement st = c.createStatement()) {
            dialect.beginWrite(c);
            actAs(c);
            StatementStop stop = StatementStop.forWrite(vertx, config.queryTimeoutSeconds());
            stop.arm(() -> cancelQuietly(st), call);
            int affected;
            try {
              stop.refuseIfStopped();
              affected = st.executeUpdate(statement);
            } catch (SQLException e) {
              c.rollback();
              throw Objects.requireNonNullElse(
                  stop.reason(),
                  new CallerException(
                      name + ": " + dialect.errorText(e) + " (nothing was changed)"));
            } finally {
              stop.disarm();
            }
            if (!commit) {
              c.rollback();
              return new JsonObject().put("affected_rows", affected).put("committed", false);
            }
            try {
              commitWithin(c, config.queryTimeoutSeconds());
            } catch (SQLException e) {
              discard = true;
              throw new CallerException(
                  name
                      + ": the commit did not complete ("
                      + firstLine(e.getMessage())
                      + "); whether the change was applied is unknown: check before retrying");
            }
            return new JsonObject().put("affected_rows", affected).put("committed", true);
          } finally {
            if (discard) {
              abandon(c);
            } else {
              c.setAutoCommit(true);
              c.close();
            }
          }
        },
        false);
  }

  private void commitWithin(Connection c, int seconds) throws SQLException {
    long timer = vertx.setTimer(seconds * 1000L, id -> abandon(c));
    try {
      c.commit();
    } finally {
      vertx.cancelTimer(timer);
    }
  }

  /** Closes a connection whose state is unknown, so the pool never hands it out again. */
  private static void abandon(Connection c) {
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // already gone
      }
    }
  }

  private static void cancelQuietly(Statement statement) {
    if (statement == null) {
      return;
    }
    try {
      statement.cancel();
    } catch (SQLException | RuntimeException e) {
      // already finished or closed: nothing to stop
    }
  }

  /** Runs a prepared read: never more rows than can be returned, N+1 telling there were more. */
  private static Fetched fetched(
      PreparedStatement statement, ValueRenderer renderer, int maxRows, ReadShape shape)
      throws SQLException {
    statement.setMaxRows(maxRows + 1);
    statement.setFetchSize(Math.min(maxRows + 1, 1000));
    try (ResultSet rs = statement.executeQuery()) {
      return fetch(rs, renderer, maxRows, shape);
    }
  }

  /** The columns of a result as the answer names them: label and the engine's type name. */
  private static JsonArray columns(ResultSetMetaData md) throws SQLException {
    List<String> names = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      names.add(md.getColumnLabel(i));
      types.add(md.getColumnTypeName(i));
    }
    return Fetched.columns(names, types);
  }

  /**
   * Columns (as {@code shape} names them while the result has the types it was built for, or the
   * result's own), then rows until one more than {@code maxRows} tells there were more.
   */
  private static Fetched fetch(ResultSet rs, ValueRenderer renderer, int maxRows, ReadShape shape)
      throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int count = md.getColumnCount();
    int[] types = new int[count];
    List<String> typeNames = new ArrayList<>(count);
    List<String> names = new ArrayList<>(count);
    for (int i = 1; i <= count; i++) {
      typeNames.add(md.getColumnTypeName(i));
      names.add(md.getColumnLabel(i));
      // PostgreSQL's driver reports timestamptz as a plain TIMESTAMP, read in the JVM's zone
      types[i - 1] =
          "timestamptz".equals(md.getColumnTypeName(i))
              ? Types.TIMESTAMP_WITH_TIMEZONE
              : md.getColumnType(i);
    }
    List<JsonArray> fetched = new ArrayList<>();
    while (fetched.size() <= maxRows && rs.next()) {
      JsonArray row = new JsonArray();
      for (int i = 1; i <= count; i++) {
        row.add(renderer.render(rs, i, types[i - 1]));
      }
      fetched.add(row);
    }
    return shape.fetched(names, typeNames, fetched);
  }

  /** The answer: rows kept inside the connection's budget, and a note when some were left out. */
  private JsonObject result(Fetched fetched, QueryRequest request, int maxRows, long start) {
    JsonArray columns = fetched.columns();
    ResultShaper.Shaped shaped = ResultShaper.shape(fetched.rows(), maxRows, config.maxChars());
    JsonObject result = new JsonObject().put("columns", columns);
    if (request.csv()) {
      result.put("csv", Csv.render(columns, shaped.rows()));
    } else {
      result.put("rows", new JsonArray(new ArrayList<>(shaped.rows())));
    }
    result
        .put("row_count", shaped.rows().size())
        .put("truncated", shaped.truncated())
        .put("elapsed_ms", (System.nanoTime() - start) / 1_000_000);
    if (shaped.truncated()) {
      result.put(
          "note",
          "Only the first "
              + shaped.rows().size()
              + " rows are shown (this connection returns at most "
              + config.maxRows()
              + " rows and "
              + config.maxChars()
              + " characters). Aggregate (GROUP BY, COUNT, SUM)"
              + " or filter (WHERE) to see what you need instead of more raw rows.");
    }
    return result;
  }

  /** Every table and view the connection's user can see. */
  public Future<List<TableRef>> tables() {
    return read(this::visibleTables);
  }

  /** The tables reads here may name: what the engine lists, cut to the allow-list if any. */
  private List<TableRef> visibleTables(Connection c) throws SQLException {
    List<TableRef> tables = dialect.tables(c);
    return identity.allowList() == null
        ? tables
        : tables.stream().filter(identity.allowList()::allows).toList();
  }

  /**
   * The allow-list's second wall: the engine's own plan of {@code statement}, in which views are
   * expanded, macros inlined and every name bound as the engine binds it, may read only tables on
   * the list and call no table function but a generator.
   */
  private void checkPlan(Connection c, String statement) {
    try {
      PlannedReads reads = c == null ? null : dialect.plannedReads(c, statement);
      if (reads == null) {
        throw new CallerException(
            name + ": this engine cannot show what a read reads; an allow-list cannot serve here");
      }
      identity.allowList().checkPlan(reads, dialect.tables(c), name);
    } catch (SQLException e) {
      throw new CallerException(name + ": " + dialect.errorText(e));
    }
  }

  /**
   * The allow-list's judge of one read, against the engine's tables as {@code c} lists them: each
   * table it names must be one the list holds, and a WITH name must not hide a table it does not.
   */
  private TableJudge tableJudge(Connection c) {
    return named -> {
      List<TableRef> all;
      try {
        all = c != null ? dialect.tables(c) : List.of();
      } catch (SQLException e) {
        throw new CallerException(name + ": " + dialect.errorText(e));
      }
      identity.allowList().check(named, all, name);
    };
  }

  /** What one of several names resolved to: the table, or why it could not be found. */
  public record Resolved(String name, TableRef table, String error) {}

  /** Each name as {@link TableResolver} resolves it, against one reading of the catalog. */
  public Future<List<Resolved>> resolveAll(List<String> tableNames) {
    return read(
        c -> {
          List<TableRef> tables = visibleTables(c);
          List<String> searchPath = dialect.searchPath(c);
          List<Resolved> out = new ArrayList<>();
          for (String name : tableNames) {
            try {
              out.add(new Resolved(name, TableResolver.resolve(name, tables, searchPath), null));
            } catch (CallerException e) {
              out.add(new Resolved(name, null, e.getMessage()));
            }
          }
          return out;
        });
  }

  private TableRef resolve(Connection c, String tableName) throws SQLException {
    return TableResolver.resolve(tableName, visibleTables(c), dialect.searchPath(c));
  }

  public Future<JsonObject> describe(String tableName) {
    return read(c -> dialect.describe(c, resolve(c, tableName)));
  }

  public Future<JsonArray> indexes(String tableName) {
    return read(c -> dialect.indexes(c, resolve(c, tableName)));
  }

  public Future<JsonArray> sequences() {
    return read(dialect::sequences);
  }

  /** Inheritance and partitions around a table, or all of them when {@code tableName} is null. */
  public Future<JsonObject> hierarchy(String tableName) {
    return read(c -> dialect.hierarchy(c, tableName == null ? null : resolve(c, tableName)));
  }

  public Future<Long> rowCount(TableRef table) {
    return read(c -> dialect.rowCount(c, table));
  }

  /**
   * ok, server version, round-trip milliseconds and pool use; never fails, says what went wrong.
   */
  public Future<JsonObject> health() {
    long start = System.nanoTime();
    return read(dialect::version)
        .transform(
            ar ->
                Future.succeededFuture(
                    withPrivileges(
                        ar.succeeded()
                            ? new JsonObject()
                                .put("ok", true)
                                .put("version", ar.result())
                                .put("roundTripMs", (System.nanoTime() - start) / 1_000_000)
                                .put("pool", pool())
                            : new JsonObject()
                                .put("ok", false)
                                .put("error", ar.cause().getMessage()))));
  }

  /** Adds what health_check says about the role's privileges, when the dialect tells them. */
  private JsonObject withPrivileges(JsonObject health) {
    if (!dialect.name().equals("postgres")) {
      return health;
    }
    health.put("privileged", new JsonArray(new ArrayList<>(privileged)));
    if (!privileged.isEmpty()) {
      health.put(
          "warning",
          "the role has "
              + String.join(", ", privileged)
              + ": it can run programs or touch files on the server, so one statement that passed"
              + " every wall could do so; use a role without these privileges");
    }
    return health;
  }

  private JsonObject pool() {
    JsonObject usage = source.usage().put("runaway", runaways.get());
    return reactive == null ? usage : usage.mergeIn(reactive.usage());
  }

  void close() {
    logins.values().forEach(Database::close);
    if (reactive != null) {
      reactive.close();
    }
    source.close();
  }
}
