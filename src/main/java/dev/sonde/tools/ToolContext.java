package dev.sonde.tools;

import dev.sonde.core.Call;
import dev.sonde.core.CallerException;
import dev.sonde.jobs.Job;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a running tool call sees: its arguments, who called, its {@link Call} (deadline, stop,
 * progress, pool; shared with its job and every engine step), its job (in job mode), and a way to
 * log to and ask the client. Safe to use from the worker thread running the tool.
 */
public final class ToolContext {
  private static final Logger LOG = LoggerFactory.getLogger(ToolContext.class);

  private final Vertx vertx;
  private final ToolSpec spec;
  private final JsonObject args;
  private final MultiMap headers;
  private final Call call;
  private final Job job;

  ToolContext(Vertx vertx, ToolSpec spec, JsonObject args, MultiMap headers, Call call, Job job) {
    this.vertx = vertx;
    this.spec = spec;
    this.args = args == null ? new JsonObject() : args;
    this.headers = headers;
    this.call = call;
    this.job = job;
  }

  /** The call's lifecycle, to hand to every engine step. */
  public Call call() {
    return call;
  }

  public Vertx vertx() {
    return vertx;
  }

  /**
   * The arguments as sent, whole: for unlisted {@link Operation}s, which take JSON other families
   * wrote rather than declared arguments.
   */
  public JsonObject args() {
    return args;
  }

  /**
   * The value of one of the tool's declared arguments, or its default (null without one) when the
   * caller left it out. An argument the tool does not declare fails: its schema refuses it anyway.
   */
  public <T> T arg(Arg<T> arg) {
    if (!spec.arguments().contains(arg)) {
      throw new IllegalArgumentException(
          spec.name() + " reads argument " + arg.name() + " without declaring it");
    }
    return arg.from(args);
  }

  public String tool() {
    return headers.get(CallHeaders.TOOL);
  }

  public String session() {
    return headers.get(CallHeaders.SESSION);
  }

  public String account() {
    return headers.get(CallHeaders.ACCOUNT);
  }

  public String callId() {
    return headers.get(CallHeaders.CALL);
  }

  /** What the client can do (its declared capabilities), for this request. */
  public JsonObject clientCapabilities() {
    return json(CallHeaders.CLIENT_CAPABILITIES);
  }

  /**
   * Whether the client declared a capability: {@code elicitation}, {@code sampling}, {@code roots}.
   */
  public boolean clientCan(String capability) {
    return clientCapabilities().containsKey(capability);
  }

  /**
   * The client's answers to the input requests the tool returned last round, by key; empty on the
   * first round. Each answer is the client's, unchecked: the tool validates what it reads.
   */
  public JsonObject inputResponses() {
    return json(CallHeaders.INPUT_RESPONSES);
  }

  /** What the tool kept with its last input request, as it kept it; empty on the first round. */
  public JsonObject requestState() {
    return json(CallHeaders.REQUEST_STATE);
  }

  private JsonObject json(String header) {
    String value = headers.get(header);
    return value == null ? new JsonObject() : new JsonObject(value);
  }

  public boolean hasProgressToken() {
    return headers.contains(CallHeaders.PROGRESS_TOKEN);
  }

  /** Epoch milliseconds by which the call must answer. */
  public long deadline() {
    return call.deadline();
  }

  /** The job of a job-mode call. */
  public Job job() {
    if (job == null) {
      throw new IllegalStateException(tool() + " is not a job-mode tool");
    }
    return job;
  }

  /** Sends a log message to the client (job mode; filtered by the session's level). */
  public void log(String level, String message) {
    if (job == null) {
      LOG.info("{}: {}", tool(), message);
      return;
    }
    vertx
        .eventBus()
        .send(
            CallHeaders.CALLBACK_PREFIX + callId(),
            new JsonObject().put("type", "log").put("level", level).put("message", message));
  }

  /** Sends a request to the client (sampling, elicitation) and returns its result (job mode). */
  public Future<JsonObject> requestClient(String method, JsonObject params, Duration timeout) {
    job();
    return vertx
        .eventBus()
        .<JsonObject>request(
            CallHeaders.CALLBACK_PREFIX + callId(),
            new JsonObject().put("type", "request").put("method", method).put("params", params),
            new DeliveryOptions().setSendTimeout(timeout.toMillis()))
        .map(reply -> reply.body());
  }

  /** {@link #requestClient} for tools running on a worker thread. */
  public JsonObject requestClientAndWait(String method, JsonObject params, Duration timeout)
      throws InterruptedException {
    try {
      return requestClient(method, params, timeout)
          .toCompletionStage()
          .toCompletableFuture()
          .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new CallerException(method + " failed: " + e.getCause().getMessage());
    } catch (TimeoutException e) {
      throw new CallerException("the client did not answer " + method + " in time");
    }
  }

  public boolean isCancelled() {
    return call.isStopped();
  }

  public String cancelReason() {
    return call.stopReason();
  }
}
