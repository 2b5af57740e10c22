package dev.sonde.chatbi;

import dev.sonde.chatbi.Retriever.Retrieved;
import dev.sonde.config.SondeConfig.ChatBiConfig;
import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.CancelledException;
import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.db.QueryRequest;
import dev.sonde.tools.FamilyVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * chat_bi's pipeline: a question to verified SQL and its rows, one traced step each (retrieve;
 * prompt, llm and extract when a model is configured, else generate; validate; execute). The answer
 * is the reference system's envelope; a question it cannot answer is {@code success: false} with
 * the reason and the steps done.
 */
public final class ChatBi {
  public static final String EMPTY_QUESTION_ZH = "自然语言问句（nlq）不能为空";
  public static final String EMPTY_QUESTION_EN = "The question (nlq) is empty; ask something.";
  private static final DateTimeFormatter REQ_ID = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");
  private static final Logger LOG = LoggerFactory.getLogger(ChatBi.class);

  /** Receives each step as it ends, with the milliseconds since the question arrived. */
  public interface Steps {
    void step(TraceStep step, long cumulativeMillis);
  }

  public record TraceStep(String step, boolean ok, String message, long millis, JsonObject data) {
    public JsonObject toJson() {
      return new JsonObject()
          .put("step", step)
          .put("ok", ok)
          .put("message", message)
          .put("millis", millis)
          .put("data", data);
    }
  }

  private final Vertx vertx;
  private final DatabaseRegistry databases;
  private final ChatBiConfig config;
  private final Traces traces;
  private final WorkerExecutor traceWriter;
  private final ModelClient model;
  private final boolean dense;
  private final Map<String, Retriever> retrievers = new ConcurrentHashMap<>();
  private final DatabaseValues databaseValues = new DatabaseValues();

  public ChatBi(
      Vertx vertx,
      DatabaseRegistry databases,
      ChatBiConfig config,
      Path dataDir,
      Map<String, String> environment) {
    this.vertx = vertx;
    this.databases = databases;
    this.config = config;
    this.traces = new Traces(dataDir.resolve("chatbi").resolve("trace"), config);
    this.traceWriter = FamilyVerticle.pool(vertx, "chatbi-traces", 1);
    this.model =
        config.llm().provider().equals("none") ? null : new ModelClient(config.llm(), environment);
    this.dense = config.embeddings() && Embedder.bundled();
    if (config.embeddings() && !dense) {
      // start anyway: one file serves both jars, and words alone answer as many held-out questions
      LOG.warn(
          "chatbi.embeddings is on but this jar was built without -Pembeddings; retrieval is"
              + " lexical");
    }
  }

  /**
   * The envelope answering {@code nlq} over {@code domain} (null: the default one). Each step is
   * composed on the one before; the parser and retriever run on the call's pool, statements on the
   * database's, the model's answer arrives over non-blocking HTTP: no thread waits for another.
   */
  public Future<JsonObject> ask(String nlq, String domain, ZoneId zone, Call call, Steps steps) {
    ZonedDateTime now = ZonedDateTime.now(zone);
    String reqId = REQ_ID.format(now) + "-" + UUID.randomUUID().toString().replace("-", "");
    Run run = new Run(reqId, steps, call);
    Future<JsonObject> answer =
        nlq == null || nlq.isBlank()
            ? Future.succeededFuture(
                run.failure(List.of(EMPTY_QUESTION_ZH, EMPTY_QUESTION_EN), "empty question", ""))
            : question(run, nlq, domain, now, zone)
                .compose(
                    q -> {
                      if (q == null) {
                        return Future.succeededFuture(
                            run.failure(run.errors, run.errors.get(0), ""));
                      }
                      return model == null ? generated(run, q) : withModel(run, q);
                    });
    // a stopped question ends as stopped, whatever its statement's failure said on the way
    return answer
        .transform(
            done -> {
              if (call.isStopped()) {
                return Future.failedFuture(new CancelledException(call.stopReason()));
              }
              return done.succeeded()
                  ? Future.succeededFuture(done.result())
                  : Future.failedFuture(done.cause());
            })
        // traces are appended by one thread, in the order the questions end
        .eventually(
            () ->
                traceWriter.executeBlocking(
                    () -> {
                      traces.write(reqId, nlq, run.trace);
                      return null;
                    },
                    true));
  }

  /**
   * The question with its domain's context retrieved; null (the reason in {@code run.errors}) when
   * the domain cannot be loaded or its values read.
   */
  private Future<Question> question(
      Run run, String nlq, String domain, ZonedDateTime now, ZoneId zone) {
    Ontology declared;
    Database db;
    try {
      declared = Ontologies.load(Path.of(config.ontology())).choose(domain);
      db = databases.get(declared.connection(), run.call.account());
    } catch (CallerException e) {
      run.errors.add(e.getMessage());
      return Future.succeededFuture();
    }
    return databaseValues
        .filled(declared, db, run.call)
        .compose(
            ontology ->
                run.call.blocking(
                    () -> {
                      Retriever retriever =
                          retrievers.compute(
                              ontology.domain(),
                              (k, old) ->
                                  old != null && old.ontology().equals(ontology)
                                      ? old
                                      : new Retriever(ontology));
                      Retrieved found = retriever.retrieve(nlq, dense);
                      run.step(
                          "retrieve",
                          true,
                          found.matches().size()
                              + " items and "
                              + found.values().size()
                              + " values matched; tables "
                              + found.tables(),
                          found.toJson().put("domain", ontology.domain()));
                      return new Question(ontology, db, found, nlq, now, zone);
                    }))
        .recover(
            failure -> {
              if (failure instanceof CallerException e) {
                run.errors.add(e.getMessage());
                return Future.succeededFuture();
              }
              return Future.failedFuture(failure);
            });
  }

  /** The embedded generator's SQL, validated and run; a failure says which step stopped it. */
  private Future<JsonObject> generated(Run run, Question q) {
    return run.call
        .blocking(() -> generate(run, q))
        .compose(
            sql ->
                sql == null
                    ? Future.succeededFuture()
                    : run.validate(q, sql)
                        .map(refused -> refused == null ? sql : refusedSql(run, refused)))
        .compose(
            sql -> {
              if (sql == null) {
                return Future.succeededFuture(
                    run.failure(run.errors, run.errors.get(run.errors.size() - 1), run.sql));
              }
              return execute(run, q, sql)
                  .map(data -> run.success(sql, data))
                  .recover(
                      failure ->
                          failure instanceof CallerException e
                              ? Future.succeededFuture(
                                  run.failure(
                                      List.of("查询执行失败 / execution failed: " + e.getMessage()),
                                      e.getMessage(),
                                      sql))
                              : Future.failedFuture(failure));
            });
  }

  /** A refused SQL's reason kept among the errors; no SQL goes on. */
  private static String refusedSql(Run run, String refused) {
    run.errors.add("SQL 校验失败 / validation failed: " + refused);
    return null;
  }

  /** The embedded generator's SQL; null (with the reason) when it does not understand. */
  private String generate(Run run, Question q) {
    SemanticParser parser = new SemanticParser(q.ontology(), q.db().dialectName());
    String sql;
    QueryPlan plan;
    try {
      plan = parser.parse(q.nlq(), q.found(), q.now());
      sql = parser.sql(plan);
    } catch (NotUnderstood e) {
      run.step("generate", false, "did not understand " + e.getMessage(), new JsonObject());
      run.errors.add("没能理解问题 / did not understand " + e.getMessage());
      return null;
    }
    run.sql = sql;
    run.step(
        "generate",
        true,
        "embedded semantic parser: " + String.join("; ", plan.understood()),
        new JsonObject().put("sql", sql).put("understood", new JsonArray(plan.understood())));
    return sql;
  }

  /**
   * The model path: prompt, answer, SQL out of it, validation, execution; a SQL refused or failing
   * goes back to the model with the reason, at most {@code retries} times. An unreachable model
   * falls back to the embedded generator, said in the trace.
   */
  private Future<JsonObject> withModel(Run run, Question q) {
    String system = Prompt.system(q.db().dialectName());
    String user = Prompt.user(q.ontology(), q.found(), q.nlq(), q.now().toLocalDate());
    run.step(
        "prompt",
        true,
        "context of " + q.found().tables().size() + " tables for " + model.provider(),
        new JsonObject().put("chars", system.length() + user.length()));
    return attempt(run, q, system, user, 0, "");
  }

  /** One round with the model: {@code retry} carries what was wrong with the last answer. */
  private Future<JsonObject> attempt(
      Run run, Question q, String system, String user, int attempt, String retry) {
    if (attempt > config.llm().retries()) {
      return Future.succeededFuture(
          run.failure(run.errors, run.errors.get(run.errors.size() - 1), run.sql));
    }
    return model
        .ask(system, user + retry, run.call)
        .compose(
            answer -> {
              run.step(
                  "llm",
                  true,
                  answer.model() + " answered" + (attempt > 0 ? " (retry " + attempt + ")" : ""),
                  new JsonObject()
                      .put("provider", model.provider())
                      .put("model", answer.model())
                      .put("prompt_tokens", answer.promptTokens())
                      .put("completion_tokens", answer.completionTokens())
                      .put("attempt", attempt + 1));
              String sql = Prompt.extract(answer.text());
              if (sql == null) {
                run.step("extract", false, "the answer has no SQL code block", new JsonObject());
                run.errors.add("the model's answer had no SQL");
                return attempt(
                    run,
                    q,
                    system,
                    user,
                    attempt + 1,
                    "\n\n" + Prompt.retry(answer.text(), "no SQL SELECT in a ```sql code block"));
              }
              run.sql = sql;
              run.step(
                  "extract",
                  true,
                  "SQL from the answer's code block",
                  new JsonObject().put("sql", sql));
              return run.validate(q, sql)
                  .compose(
                      refused -> {
                        if (refused != null) {
                          run.errors.add("SQL 校验失败 / validation failed: " + refused);
                          return attempt(
                              run,
                              q,
                              system,
                              user,
                              attempt + 1,
                              "\n\n" + Prompt.retry(sql, refused));
                        }
                        return execute(run, q, sql)
                            .map(data -> run.success(sql, data))
                            .recover(
                                failure -> {
                                  if (!(failure instanceof CallerException e)) {
                                    return Future.failedFuture(failure);
                                  }
                                  run.errors.add("查询执行失败 / execution failed: " + e.getMessage());
                                  return attempt(
                                      run,
                                      q,
                                      system,
                                      user,
                                      attempt + 1,
                                      "\n\n" + Prompt.retry(sql, e.getMessage()));
                                });
                      });
            },
            failure -> {
              if (!(failure instanceof ModelClient.Unreachable e)) {
                return Future.failedFuture(failure);
              }
              run.step(
                  "llm",
                  false,
                  e.getMessage() + "; falling back to the embedded generator",
                  new JsonObject().put("provider", model.provider()).put("model", model.model()));
              return generated(run, q);
            });
  }

  /**
   * Runs the validated SQL: the envelope's data, rows keyed by column; a failure is recorded as a
   * failed step and passed on for the caller to report or send back to the model.
   */
  private Future<JsonObject> execute(Run run, Question q, String sql) {
    Database db = q.db();
    ZoneId zone = q.zone();
    return db.query(new QueryRequest(sql, config.rowCap(), false, "iso", zone), run.call)
        .onFailure(
            failure -> {
              if (failure instanceof CallerException e) {
                run.step("execute", false, e.getMessage(), new JsonObject());
              }
            })
        .compose(
            result -> {
              boolean truncated = result.getBoolean("truncated", false);
              Future<Long> actual =
                  !truncated
                      ? Future.succeededFuture((long) result.getJsonArray("rows").size())
                      : db.query(
                              new QueryRequest(
                                  "SELECT COUNT(*) FROM (" + sql + ") AS answer",
                                  1,
                                  false,
                                  "iso",
                                  zone),
                              run.call)
                          .map(
                              count ->
                                  ((Number) count.getJsonArray("rows").getJsonArray(0).getValue(0))
                                      .longValue())
                          .recover(
                              failure ->
                                  failure instanceof CallerException
                                      ? Future.succeededFuture(-1L)
                                      : Future.failedFuture(failure));
              return actual.map(rows -> data(run, result, truncated, rows));
            });
  }

  /** The rows keyed by column, with their count and whether there were more. */
  private static JsonObject data(Run run, JsonObject result, boolean truncated, long actual) {
    // rows are keyed by column: a name the SQL gives twice is told apart, never overwritten
    List<String> columns = new ArrayList<>();
    for (Object c : result.getJsonArray("columns")) {
      String name = ((JsonObject) c).getString("name");
      String unique = name;
      for (int n = 2; columns.contains(unique); n++) {
        unique = name + "_" + n;
      }
      columns.add(unique);
    }
    JsonArray rows = new JsonArray();
    for (Object r : result.getJsonArray("rows")) {
      JsonArray row = (JsonArray) r;
      JsonObject object = new JsonObject();
      for (int i = 0; i < columns.size(); i++) {
        object.put(columns.get(i), row.getValue(i));
      }
      rows.add(object);
    }
    JsonObject data =
        new JsonObject()
            .put("columns", new JsonArray(columns))
            .put("rows", rows)
            .put("rowCount", rows.size())
            .put("truncated", truncated)
            .put("actualRows", actual);
    run.step(
        "execute",
        true,
        rows.size() + " rows" + (truncated ? " of " + (actual < 0 ? "more" : actual) : ""),
        new JsonObject().put("rowCount", rows.size()).put("truncated", truncated));
    return data;
  }

  /** What a question is asked of: its domain, database, retrieved context, words, time and zone. */
  private record Question(
      Ontology ontology,
      Database db,
      Retrieved found,
      String nlq,
      ZonedDateTime now,
      ZoneId zone) {}

  /** One question's state: its id, steps so far, the last SQL and the errors. */
  private final class Run {
    final String reqId;
    final Steps listener;
    final Call call;
    final long started = System.nanoTime();
    long last = started;
    final List<TraceStep> trace = new ArrayList<>();
    final List<String> errors = new ArrayList<>();
    String sql = "";

    Run(String reqId, Steps listener, Call call) {
      this.reqId = reqId;
      this.listener = listener;
      this.call = call;
    }

    /** Records a step, then stops here when the call was stopped meanwhile. */
    void step(String name, boolean ok, String message, JsonObject data) {
      long now = System.nanoTime();
      TraceStep step = new TraceStep(name, ok, message, (now - last) / 1_000_000, data);
      last = now;
      trace.add(step);
      listener.step(step, (now - started) / 1_000_000);
      call.checkpoint();
    }

    /**
     * The databases guard, the AST check against the domain, then EXPLAIN within the configured
     * time: null when the SQL passes all three, else what stopped it.
     */
    Future<String> validate(Question q, String candidate) {
      Database db = q.db();
      JsonObject data = new JsonObject();
      return db.guard(candidate)
          .compose(
              guarded -> {
                data.put("guard", "read-only, one statement");
                return call.blocking(() -> SqlCheck.problems(candidate, q.ontology()));
              })
          .compose(
              problems -> {
                if (!problems.isEmpty()) {
                  data.put("ast", new JsonArray(problems));
                  return Future.succeededFuture(String.join("; ", problems));
                }
                data.put("ast", "tables and joins are the domain's");
                return explain(db, candidate, call)
                    .map(
                        plan -> {
                          data.put("explain", firstLines(plan));
                          return (String) null;
                        });
              })
          .recover(
              failure ->
                  failure instanceof CallerException e
                      ? Future.succeededFuture(e.getMessage())
                      : Future.failedFuture(failure))
          .map(
              refused -> {
                step(
                    "validate",
                    refused == null,
                    refused == null ? "guard, AST and EXPLAIN passed" : refused,
                    data);
                return refused;
              });
    }

    JsonObject success(String sql, JsonObject data) {
      return envelope(
          true,
          List.of(),
          List.of("查询成功 / " + data.getInteger("rowCount") + " rows"),
          sql,
          data,
          null);
    }

    JsonObject failure(List<String> errormsg, String error, String sql) {
      JsonObject data =
          new JsonObject()
              .put("columns", new JsonArray())
              .put("rows", new JsonArray())
              .put("rowCount", 0)
              .put("truncated", false)
              .put("actualRows", 0);
      return envelope(false, errormsg, List.of(), sql, data, error);
    }

    private JsonObject envelope(
        boolean success,
        List<String> errormsg,
        List<String> msg,
        String sql,
        JsonObject data,
        String error) {
      JsonArray steps = new JsonArray();
      trace.forEach(s -> steps.add(s.toJson()));
      JsonObject biz =
          new JsonObject()
              .put("sql", sql)
              .put("data", data)
              .put("trace", steps)
              .put("reqId", reqId);
      if (error != null) {
        biz.put("error", error);
      }
      return new JsonObject()
          .put("success", success)
          .put("errormsg", new JsonArray(errormsg))
          .put("msg", new JsonArray(msg))
          .put("bizresult", biz);
    }
  }

  /** EXPLAIN, stopped when it takes longer than the configured dry-run time. */
  private Future<String> explain(Database db, String sql, Call call) {
    Call dryRun = call.part("EXPLAIN");
    long timer =
        vertx.setTimer(
            config.explainTimeoutSeconds() * 1000L,
            id ->
                dryRun.stop(
                    "the dry run took longer than " + config.explainTimeoutSeconds() + " s"));
    return db.explain(sql, false, dryRun)
        .map(plan -> plan.getString("plan", ""))
        .andThen(
            done -> {
              vertx.cancelTimer(timer);
              dryRun.stop("done");
            });
  }

  private static String firstLines(String plan) {
    String[] lines = plan.split("\n");
    return String.join("\n", java.util.Arrays.asList(lines).subList(0, Math.min(12, lines.length)));
  }
}
