package dev.sonde.chatbi;

import dev.sonde.chatbi.Retriever.Retrieved;
import dev.sonde.config.SondeConfig.ChatBiConfig;
import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.db.Database;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.db.QueryRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
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
 * the reason and the steps done. Runs on a worker thread: {@code await} waits for the database.
 */
public final class ChatBi {
  public static final String EMPTY_QUESTION_ZH = "自然语言问句（nlq）不能为空";
  public static final String EMPTY_QUESTION_EN = "The question (nlq) is empty; ask something.";
  private static final DateTimeFormatter REQ_ID = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");
  private static final Logger LOG = LoggerFactory.getLogger(ChatBi.class);

  /** Waits for a database future on the calling worker thread. */
  public interface Await {
    <T> T await(Future<T> future) throws InterruptedException;
  }

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

  /** The envelope answering {@code nlq} over {@code domain} (null: the default one). */
  public JsonObject ask(String nlq, String domain, ZoneId zone, Call call, Await await, Steps steps)
      throws InterruptedException {
    ZonedDateTime now = ZonedDateTime.now(zone);
    String reqId = REQ_ID.format(now) + "-" + UUID.randomUUID().toString().replace("-", "");
    Run run = new Run(reqId, steps, call, await);
    try {
      if (nlq == null || nlq.isBlank()) {
        return run.failure(List.of(EMPTY_QUESTION_ZH, EMPTY_QUESTION_EN), "empty question", "");
      }
      Ontology ontology;
      Database db;
      try {
        Ontology declared = Ontologies.load(Path.of(config.ontology())).choose(domain);
        db = databases.get(declared.connection());
        ontology = databaseValues.filled(declared, db, call, await);
      } catch (CallerException e) {
        return run.failure(List.of(e.getMessage()), e.getMessage(), "");
      }
      Retriever retriever =
          retrievers.compute(
              ontology.domain(),
              (k, old) ->
                  old != null && old.ontology().equals(ontology) ? old : new Retriever(ontology));
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
      return model == null
          ? generated(run, new Question(ontology, db, found, nlq, now, zone))
          : withModel(run, new Question(ontology, db, found, nlq, now, zone));
    } finally {
      traces.write(reqId, nlq, run.trace);
    }
  }

  /** The embedded generator's SQL, validated and run; a failure says which step stopped it. */
  private JsonObject generated(Run run, Question q) throws InterruptedException {
    String sql = generate(run, q);
    if (sql == null) {
      return run.failure(run.errors, run.errors.get(run.errors.size() - 1), run.sql);
    }
    try {
      return run.success(sql, execute(run, q, sql));
    } catch (CallerException e) {
      return run.failure(
          List.of("查询执行失败 / execution failed: " + e.getMessage()), e.getMessage(), sql);
    }
  }

  /** The embedded generator, then validation; null (with the reason) when either fails. */
  private String generate(Run run, Question q) throws InterruptedException {
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
    String refused = run.validate(q, sql);
    if (refused != null) {
      run.errors.add("SQL 校验失败 / validation failed: " + refused);
      return null;
    }
    return sql;
  }

  /**
   * The model path: prompt, answer, SQL out of it, validation, execution; a SQL refused or failing
   * goes back to the model with the reason, at most {@code retries} times. An unreachable model
   * falls back to the embedded generator, said in the trace.
   */
  private JsonObject withModel(Run run, Question q) throws InterruptedException {
    String system = Prompt.system(q.db().dialectName());
    String user = Prompt.user(q.ontology(), q.found(), q.nlq(), q.now().toLocalDate());
    run.step(
        "prompt",
        true,
        "context of " + q.found().tables().size() + " tables for " + model.provider(),
        new JsonObject().put("chars", system.length() + user.length()));
    String retry = "";
    for (int attempt = 0; attempt <= config.llm().retries(); attempt++) {
      ModelClient.Answer answer;
      try {
        answer = model.ask(system, user + retry);
      } catch (ModelClient.Unreachable e) {
        run.step(
            "llm",
            false,
            e.getMessage() + "; falling back to the embedded generator",
            new JsonObject().put("provider", model.provider()).put("model", model.model()));
        return generated(run, q);
      }
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
        retry = "\n\n" + Prompt.retry(answer.text(), "no SQL SELECT in a ```sql code block");
        run.errors.add("the model's answer had no SQL");
        continue;
      }
      run.sql = sql;
      run.step(
          "extract", true, "SQL from the answer's code block", new JsonObject().put("sql", sql));
      String refused = run.validate(q, sql);
      if (refused == null) {
        try {
          return run.success(sql, execute(run, q, sql));
        } catch (CallerException e) {
          refused = e.getMessage();
          run.errors.add("查询执行失败 / execution failed: " + refused);
        }
      } else {
        run.errors.add("SQL 校验失败 / validation failed: " + refused);
      }
      retry = "\n\n" + Prompt.retry(sql, refused);
    }
    return run.failure(run.errors, run.errors.get(run.errors.size() - 1), run.sql);
  }

  /**
   * Runs the validated SQL: the envelope's data, rows keyed by column; a failure is recorded as a
   * failed step and rethrown for the caller to report or send back to the model.
   */
  private JsonObject execute(Run run, Question q, String sql) throws InterruptedException {
    Database db = q.db();
    ZoneId zone = q.zone();
    Await await = run.await;
    JsonObject result;
    try {
      result =
          await.await(
              db.query(new QueryRequest(sql, config.rowCap(), false, "iso", zone), run.call));
    } catch (CallerException e) {
      run.step("execute", false, e.getMessage(), new JsonObject());
      throw e;
    }
    List<String> columns = new ArrayList<>();
    result.getJsonArray("columns").forEach(c -> columns.add(((JsonObject) c).getString("name")));
    JsonArray rows = new JsonArray();
    for (Object r : result.getJsonArray("rows")) {
      JsonArray row = (JsonArray) r;
      JsonObject object = new JsonObject();
      for (int i = 0; i < columns.size(); i++) {
        object.put(columns.get(i), row.getValue(i));
      }
      rows.add(object);
    }
    boolean truncated = result.getBoolean("truncated", false);
    long actual = rows.size();
    if (truncated) {
      try {
        JsonObject count =
            await.await(
                db.query(
                    new QueryRequest(
                        "SELECT COUNT(*) FROM (" + sql + ") AS answer", 1, false, "iso", zone),
                    run.call));
        actual = ((Number) count.getJsonArray("rows").getJsonArray(0).getValue(0)).longValue();
      } catch (CallerException e) {
        actual = -1;
      }
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
    final Await await;
    final long started = System.nanoTime();
    long last = started;
    final List<TraceStep> trace = new ArrayList<>();
    final List<String> errors = new ArrayList<>();
    String sql = "";

    Run(String reqId, Steps listener, Call call, Await await) {
      this.reqId = reqId;
      this.listener = listener;
      this.call = call;
      this.await = await;
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
    String validate(Question q, String candidate) throws InterruptedException {
      Ontology ontology = q.ontology();
      Database db = q.db();
      JsonObject data = new JsonObject();
      String refused = null;
      try {
        await.await(db.guard(candidate));
        data.put("guard", "read-only, one statement");
        List<String> problems = SqlCheck.problems(candidate, ontology);
        if (!problems.isEmpty()) {
          refused = String.join("; ", problems);
          data.put("ast", new JsonArray(problems));
        } else {
          data.put("ast", "tables and joins are the domain's");
          data.put("explain", firstLines(explain(db, candidate, call, await)));
        }
      } catch (CallerException e) {
        refused = e.getMessage();
      }
      step(
          "validate",
          refused == null,
          refused == null ? "guard, AST and EXPLAIN passed" : refused,
          data);
      return refused;
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
  private String explain(Database db, String sql, Call call, Await await)
      throws InterruptedException {
    Call dryRun = call.part("EXPLAIN");
    long timer =
        vertx.setTimer(
            config.explainTimeoutSeconds() * 1000L,
            id ->
                dryRun.stop(
                    "the dry run took longer than " + config.explainTimeoutSeconds() + " s"));
    try {
      return await.await(db.explain(sql, false, dryRun)).getString("plan", "");
    } finally {
      vertx.cancelTimer(timer);
      dryRun.stop("done");
    }
  }

  private static String firstLines(String plan) {
    String[] lines = plan.split("\n");
    return String.join("\n", java.util.Arrays.asList(lines).subList(0, Math.min(12, lines.length)));
  }
}
