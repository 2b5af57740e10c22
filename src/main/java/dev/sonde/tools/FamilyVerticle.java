package dev.sonde.tools;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.core.CancelledException;
import dev.sonde.core.HostPaths;
import dev.sonde.core.Quote;
import dev.sonde.jobs.Job;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tool family: one verticle consuming {@code sonde.tools.<family>} that runs each call where its
 * spec says, enforces the deadline, honours cancellation and replies with the CallToolResult JSON.
 * A caller-fixable problem is an {@code isError} result, logged as one line; anything else fails
 * the message with -32603 and a generic text, the details going to the log only. Every answer
 * leaves with this host's folders shown as placeholders ({@link HostPaths}).
 */
public abstract class FamilyVerticle extends VerticleBase {
  /** Failure code for an internal error, mirrored as JSON-RPC -32603 by the dispatcher. */
  public static final int INTERNAL_ERROR = -32603;

  private static final Logger LOG = LoggerFactory.getLogger(FamilyVerticle.class);

  /** The characters of a caller mistake a log line keeps. */
  private static final int LOGGED_MISTAKE = 200;

  protected final FamilyServices services;
  private final String family;
  private final Map<String, Tool> tools = new LinkedHashMap<>();
  private final Map<String, ToolContext> running = new ConcurrentHashMap<>();
  private WorkerExecutor workers;
  private WorkerExecutor jobWorkers;

  protected FamilyVerticle(String family, FamilyServices services, List<? extends Tool> tools) {
    this.family = family;
    this.services = services;
    tools.forEach(t -> this.tools.put(t.spec().name(), t));
  }

  public String family() {
    return family;
  }

  /**
   * The family's named worker pool, shared by name: its tools, and the engine work it starts
   * outside a call (an index sync, a viewer's file read), run there, never on Vert.x's default
   * pool.
   */
  public static WorkerExecutor pool(Vertx vertx, String family, int size) {
    return vertx.createSharedWorkerExecutor("sonde-" + family, size);
  }

  /** The specs of the tools MCP clients see; unlisted operations are left out. */
  public List<ToolSpec> specs() {
    return tools.values().stream().map(Tool::spec).filter(ToolSpec::listed).toList();
  }

  /** The names of the unlisted operations other families and the viewer ask of this one. */
  List<String> operationNames() {
    return tools.values().stream()
        .map(Tool::spec)
        .filter(spec -> !spec.listed())
        .map(ToolSpec::name)
        .toList();
  }

  @Override
  public Future<?> start() {
    int poolSize = services.config().jobs().workerPoolSize();
    workers = pool(vertx, family, poolSize);
    jobWorkers = vertx.createSharedWorkerExecutor("sonde-jobs", poolSize);
    vertx.eventBus().<JsonObject>consumer(CallHeaders.CANCEL_ADDRESS, this::cancel);
    return vertx
        .eventBus()
        .<JsonObject>consumer(CallHeaders.FAMILY_PREFIX + family, this::handle)
        .completion();
  }

  @Override
  public Future<?> stop() {
    running.values().forEach(ctx -> cancelCall(ctx, "Sonde is stopping"));
    return Future.succeededFuture();
  }

  private void cancel(Message<JsonObject> msg) {
    ToolContext ctx = running.get(msg.body().getString("call", ""));
    if (ctx != null) {
      cancelCall(ctx, msg.body().getString("reason", "cancelled by the client"));
    }
  }

  private void cancelCall(ToolContext ctx, String reason) {
    ctx.call().stop(reason);
  }

  private void handle(Message<JsonObject> msg) {
    String name = msg.headers().get(CallHeaders.TOOL);
    if (CallHeaders.PING.equals(name)) {
      msg.reply(new JsonObject().put("family", family).put("running", running.size()));
      return;
    }
    Tool tool = tools.get(name);
    if (tool == null) {
      msg.fail(-32602, "unknown tool " + Quote.of(name));
      return;
    }
    ToolSpec spec = tool.spec();
    Job[] job = new Job[1];
    Call call =
        new Call(
            name,
            msg.headers().get(CallHeaders.ACCOUNT),
            Long.parseLong(msg.headers().get(CallHeaders.DEADLINE)),
            workers,
            (step, message) -> {
              if (job[0] != null) {
                job[0].step(step, message);
              }
            });
    if (spec.mode() == ExecutionMode.JOB) {
      job[0] =
          services
              .jobs()
              .start(
                  msg.headers().get(CallHeaders.CALL),
                  name,
                  msg.headers().get(CallHeaders.SESSION),
                  msg.headers().get(CallHeaders.ACCOUNT),
                  call);
    }
    ToolContext ctx = new ToolContext(vertx, spec, msg.body(), msg.headers(), call, job[0]);
    running.put(ctx.callId(), ctx);
    AtomicBoolean answered = new AtomicBoolean();
    // every call gets its deadline here, so its work is stopped even if nobody waits any more
    long timer = deadlineTimer(msg, ctx, answered);
    run(tool, ctx)
        .onComplete(
            ar -> {
              vertx.cancelTimer(timer);
              running.remove(ctx.callId());
              if (job[0] != null) {
                services
                    .jobs()
                    .finish(job[0], ar.succeeded() && !ar.result().isError(), outcome(ar.cause()));
              }
              if (!answered.compareAndSet(false, true)) {
                return;
              }
              ToolResult answer = answer(name, ctx, ar);
              if (answer == null) {
                LOG.error("tool {} failed", name, ar.cause());
                msg.fail(INTERNAL_ERROR, "internal error while running " + name);
                return;
              }
              if (answer.isError()) {
                LOG.info("tool {} answered an error: {}", name, logLine(answer));
              }
              msg.reply(answer);
            });
  }

  /** What the caller is told, or null for an internal failure. */
  private ToolResult answer(String name, ToolContext ctx, AsyncResult<ToolResult> outcome) {
    if (outcome.succeeded()) {
      return redacted(outcome.result());
    }
    String mistake = CallerMistake.messageOf(outcome.cause());
    if (mistake != null) {
      return redacted(ToolResult.error(mistake));
    }
    if (ctx.isCancelled() || outcome.cause() instanceof CancelledException) {
      return ToolResult.error(name + " was cancelled: " + ctx.cancelReason());
    }
    return null;
  }

  /** A caller's mistake as one short log line: it is theirs to fix, so no stack and no paths. */
  private static String logLine(ToolResult error) {
    return Quote.cut(error.firstText(), LOGGED_MISTAKE).replaceAll("\\s+", " ").strip();
  }

  /**
   * The result with this host's folders as placeholders, in its text and its structure alike; the
   * same result when there is nothing to hide (every answer passes here).
   */
  private ToolResult redacted(ToolResult result) {
    if (result.content() == null) {
      return result;
    }
    HostPaths hostPaths = services.jobs().hostPaths();
    JsonArray content = result.content();
    for (int i = 0; i < content.size(); i++) {
      // only text is searched: a folder's spelling inside an image's base64 is a coincidence
      if (content.getValue(i) instanceof JsonObject block
          && "text".equals(block.getString("type"))) {
        Object redacted = hostPaths.redactJson(block);
        if (redacted != block) {
          content = content == result.content() ? content.copy() : content;
          content.set(i, redacted);
        }
      }
    }
    JsonObject structured =
        result.structuredContent() == null
            ? null
            : (JsonObject) hostPaths.redactJson(result.structuredContent());
    return content == result.content() && structured == result.structuredContent()
        ? result
        : new ToolResult(content, structured, result.isError(), result.inputRequired());
  }

  private long deadlineTimer(Message<JsonObject> msg, ToolContext ctx, AtomicBoolean answered) {
    long delay = Math.max(1, ctx.deadline() - System.currentTimeMillis());
    return vertx.setTimer(
        delay,
        t -> {
          String reason =
              ctx.tool() + " timed out after " + (delay + 999) / 1000 + " s and was stopped";
          cancelCall(ctx, reason);
          if (answered.compareAndSet(false, true)) {
            msg.reply(ToolResult.error(reason + "; narrow the request and try again"));
          }
        });
  }

  private String outcome(Throwable failure) {
    if (failure == null) {
      return "finished";
    }
    return failure instanceof CallerException ? failure.getMessage() : "failed";
  }

  private Future<ToolResult> run(Tool tool, ToolContext ctx) {
    return switch (tool.spec().mode()) {
      case EVENT_LOOP -> invoke(tool, ctx);
      case WORKER -> workers.executeBlocking(() -> invoke(tool, ctx), false).compose(f -> f);
      case JOB -> jobWorkers.executeBlocking(() -> invoke(tool, ctx), false).compose(f -> f);
    };
  }

  private static Future<ToolResult> invoke(Tool tool, ToolContext ctx) {
    try {
      Future<ToolResult> result = tool.call(ctx);
      return result == null ? Future.failedFuture(new IllegalStateException("no result")) : result;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Future.failedFuture(new CancelledException("interrupted"));
    } catch (Exception e) {
      return Future.failedFuture(e);
    }
  }
}
