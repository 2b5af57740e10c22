package dev.sonde.mcp;

import dev.sonde.auth.AuditTrail;
import dev.sonde.auth.FairUse;
import dev.sonde.auth.Principal;
import dev.sonde.config.LogLevel;
import dev.sonde.core.Quote;
import dev.sonde.jobs.JobRegistry;
import dev.sonde.jobs.JobStatus;
import dev.sonde.tools.CallHeaders;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.TaskSupport;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * {@code tools/call} and the {@code tasks/*} methods: validates arguments, sends the call to its
 * family over the event bus, relays job steps as progress and the tool's log lines and client
 * requests to the caller, and cancels on request.
 */
final class ToolCaller {
  static final String RELATED_TASK = "io.modelcontextprotocol/related-task";

  /** The extension that lets a modern tools/call answer with a task handle. */
  static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

  private final Vertx vertx;
  private final ToolRegistry tools;
  private final TaskStore tasks = new TaskStore();
  private final long defaultTimeoutMillis;
  private final long taskTtlMillis;
  private final boolean cancelOnDisconnect;
  private final RequestStates states;
  private final AuditTrail audit;
  private final FairUse fairUse;
  private final Map<String, ModernTask> modernTasks = new ConcurrentHashMap<>();

  /** The round each task waiting for input will run again once answered. */
  private final Map<String, Call> pendingRounds = new ConcurrentHashMap<>();

  /** Every call running now and who made it, sessions' and stateless requests' alike. */
  private final Map<InFlightCall, Principal> running = new ConcurrentHashMap<>();

  private volatile Consumer<ModernTask> taskListener = task -> {};

  /** Rounds of client input one legacy call may ask for before Sonde gives up on it. */
  private static final int MAX_INPUT_ROUNDS = 8;

  ToolCaller(
      Vertx vertx,
      ToolRegistry tools,
      long defaultTimeoutMillis,
      long taskTtlMillis,
      boolean cancelOnDisconnect,
      RequestStates states,
      AuditTrail audit,
      FairUse fairUse) {
    this.vertx = vertx;
    this.states = states;
    this.audit = audit;
    this.fairUse = fairUse;
    this.tools = tools;
    this.defaultTimeoutMillis = defaultTimeoutMillis;
    this.taskTtlMillis = taskTtlMillis;
    this.cancelOnDisconnect = cancelOnDisconnect;
    vertx.setPeriodic(
        60_000,
        id -> {
          tasks.expire();
          long now = System.currentTimeMillis();
          modernTasks
              .values()
              .removeIf(
                  t -> {
                    boolean expired = t.expired(now);
                    if (expired) {
                      pendingRounds.remove(t.taskId);
                    }
                    return expired;
                  });
        });
  }

  /**
   * Returns the CallToolResult (or CreateTaskResult), or null when the call was cancelled; each
   * call leaves one line in the audit trail, a refused one too.
   */
  Future<JsonObject> call(
      Session session, Object requestId, JsonObject params, ClientChannel channel) {
    long started = System.nanoTime();
    String tool = params.getValue("name") instanceof String n ? n : "";
    JsonObject arguments =
        params.getValue("arguments") instanceof JsonObject a ? a : new JsonObject();
    Future<JsonObject> answer;
    try {
      answer = run(session, requestId, params, channel);
    } catch (McpException e) {
      audit.called(
          session.principal(),
          session.transport(),
          tool,
          arguments,
          started,
          "refused",
          e.getMessage(),
          null);
      throw e;
    }
    return answer.onComplete(
        done -> {
          JsonObject result = done.succeeded() ? done.result() : null;
          JsonObject content =
              result != null && result.getValue("structuredContent") instanceof JsonObject c
                  ? c
                  : new JsonObject();
          Integer rows =
              content.getValue("rows") instanceof JsonArray r
                  ? Integer.valueOf(r.size())
                  : content.getValue("affected_rows") instanceof Number n
                      ? Integer.valueOf(n.intValue())
                      : null;
          audit.called(
              session.principal(),
              session.transport(),
              tool,
              arguments,
              started,
              outcome(done.failed(), result),
              done.failed() ? "internal error" : errorText(result),
              rows);
        });
  }

  /** What became of a call, as the audit trail names it. */
  private static String outcome(boolean failed, JsonObject result) {
    if (failed) {
      return "error";
    }
    if (result == null) {
      return "cancelled";
    }
    if (result.containsKey("task")) {
      return "task";
    }
    if ("input_required".equals(result.getString("resultType"))) {
      return "input_required";
    }
    return result.getBoolean("isError", false) ? "error" : "ok";
  }

  /** The first text of an error result, or null. */
  private static String errorText(JsonObject result) {
    if (result == null
        || !result.getBoolean("isError", false)
        || !(result.getValue("content") instanceof JsonArray content)
        || content.isEmpty()
        || !(content.getValue(0) instanceof JsonObject first)) {
      return null;
    }
    return first.getString("text");
  }

  private Future<JsonObject> run(
      Session session, Object requestId, JsonObject params, ClientChannel channel) {
    String name = params.getString("name");
    if (name == null || name.isBlank()) {
      throw new McpException(JsonRpc.INVALID_PARAMS, "tools/call needs the tool's \"name\"");
    }
    ToolRegistry.RegisteredTool tool = tools.get(name);
    if (tool == null) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS,
          "unknown tool " + Quote.of(name) + "; tools/list shows the available tools");
    }
    // a tool the toolsets leave out is not run, even when called by name
    if (!session.grant().allows(name)) {
      throw new McpException(JsonRpc.INVALID_PARAMS, session.grant().refusal(name));
    }
    JsonObject meta = params.getJsonObject("_meta");
    Object token = meta == null ? null : meta.getValue("progressToken");
    TaskSupport support = tool.spec().taskSupport();
    boolean modern = ProtocolVersions.isModern(session.protocolVersion());
    // the legacy "task" parameter means nothing in the modern era: the extension decides there
    Object task = modern ? null : params.getValue("task");
    boolean asTask = false;
    if (modern) {
      requireCapabilities(name, tool.spec().requiredCapabilities(), session.clientCapabilities());
      boolean declared = tasksDeclared(session);
      if (support == TaskSupport.REQUIRED && !declared) {
        throw withoutTasks(
            name + " runs only as a task; declare the " + TASKS_EXTENSION + " extension");
      }
      // a tool that gathers its input first answers that exchange directly, then becomes a task
      asTask =
          declared
              && support != TaskSupport.FORBIDDEN
              && !(tool.spec().inputBeforeTask() && params.getValue("inputResponses") == null);
    } else if (task != null && support == TaskSupport.FORBIDDEN) {
      throw new McpException(
          JsonRpc.METHOD_NOT_FOUND, name + " cannot run as a task; call it without \"task\"");
    } else if (task == null && support == TaskSupport.REQUIRED) {
      throw new McpException(
          JsonRpc.METHOD_NOT_FOUND, name + " runs only as a task; add \"task\": {} to the call");
    }
    Object arguments = params.getValue("arguments");
    Input input =
        inputOf(
            params,
            name,
            arguments instanceof JsonObject a ? a : new JsonObject(),
            session.account());
    String problem =
        arguments == null || arguments instanceof JsonObject
            ? ToolRegistry.validate(
                tool, arguments == null ? new JsonObject() : (JsonObject) arguments)
            : "\"arguments\" must be an object";
    JsonObject args = arguments instanceof JsonObject a ? a : new JsonObject();
    Call call =
        new Call(session, requestId, tool, args, token, UUID.randomUUID().toString(), input, 0, 0);
    if (task != null) {
      return Future.succeededFuture(startTask(call, problem, task));
    }
    if (asTask) {
      return Future.succeededFuture(startModernTask(call.asTask(taskTtlMillis), problem));
    }
    if (problem != null) {
      return Future.succeededFuture(ToolResult.error(problem).toJson());
    }
    InFlightCall inFlight = new InFlightCall(call.id());
    String key = String.valueOf(requestId);
    session.calls().put(key, inFlight);
    running.put(inFlight, session.principal());
    // in the modern era a closed stream is the request's cancellation, whatever the setting
    if (cancelOnDisconnect || ProtocolVersions.isModern(session.protocolVersion())) {
      channel.onClose(() -> cancel(session, requestId, "the client disconnected"));
    }
    Consumer<JsonObject> noSteps = event -> {};
    return dispatch(call, channel, noSteps)
        .compose(result -> answer(call, channel, noSteps, inFlight, result))
        .map(result -> inFlight.cancelled ? null : result)
        .onComplete(
            ar -> {
              session.calls().remove(key, inFlight);
              running.remove(inFlight);
            });
  }

  /** A -32021 naming what the tool needs of the client that this request did not declare. */
  private static void requireCapabilities(String tool, JsonObject required, JsonObject declared) {
    JsonObject missing = new JsonObject();
    required.forEach(
        e -> {
          if (!declared.containsKey(e.getKey())) {
            missing.put(e.getKey(), e.getValue());
          }
        });
    if (!missing.isEmpty()) {
      throw new McpException(
          JsonRpc.MISSING_CLIENT_CAPABILITY,
          tool
              + " needs the client capabilities "
              + missing.fieldNames()
              + "; declare them in _meta's "
              + RequestMeta.CLIENT_CAPABILITIES,
          new JsonObject().put("requiredCapabilities", missing));
    }
  }

  /** A retry's answers and the tool's sealed state, opened; -32602 when the state was tampered. */
  private Input inputOf(JsonObject params, String tool, JsonObject arguments, String account) {
    JsonObject responses =
        params.getValue("inputResponses") instanceof JsonObject r ? r : new JsonObject();
    Object sealed = params.getValue("requestState");
    if (sealed == null) {
      return new Input(responses, new JsonObject());
    }
    if (!(sealed instanceof String s)) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS, "requestState must be the string the server returned");
    }
    return new Input(responses, states.open(s, tool, arguments, account));
  }

  /**
   * The wire answer to a tool's result. A tool that needs client input first gives a modern client
   * its input requests with the state sealed; on a legacy session Sonde sends those requests to the
   * client itself and runs the tool again with the answers, so tools ask in one way for both eras.
   */
  private Future<JsonObject> answer(
      Call call,
      ClientChannel channel,
      Consumer<JsonObject> onStep,
      InFlightCall inFlight,
      ToolResult result) {
    ToolResult.InputRequired asked = result.inputRequired();
    if (asked == null) {
      return Future.succeededFuture(result.toJson());
    }
    String tool = call.tool().spec().name();
    Session session = call.session();
    if (ProtocolVersions.isModern(session.protocolVersion())) {
      JsonObject json = result.toJson();
      if (asked.state() != null) {
        json.put("requestState", states.seal(tool, call.args(), session.account(), asked.state()));
      }
      return Future.succeededFuture(json);
    }
    if (call.round() + 1 >= MAX_INPUT_ROUNDS) {
      return Future.succeededFuture(
          ToolResult.error(tool + " asked the client for input " + MAX_INPUT_ROUNDS + " times")
              .toJson());
    }
    List<String> keys = new ArrayList<>(asked.inputRequests().fieldNames());
    List<Future<JsonObject>> answers = new ArrayList<>();
    for (String key : keys) {
      JsonObject request = asked.inputRequests().getJsonObject(key, new JsonObject());
      String method = request.getString("method", "");
      String capability = method.substring(0, Math.max(0, method.indexOf('/')));
      if (!session.clientCapabilities().containsKey(capability)) {
        return Future.succeededFuture(
            ToolResult.error(
                    tool
                        + " needs the client's '"
                        + capability
                        + "' capability, which this session did not declare")
                .toJson());
      }
      answers.add(
          clientRequest(session, channel, method, request.getJsonObject("params", new JsonObject()))
              .timeout(call.timeoutMillis(defaultTimeoutMillis), TimeUnit.MILLISECONDS));
    }
    return Future.all(answers)
        .compose(
            all -> {
              JsonObject responses = new JsonObject();
              for (int i = 0; i < keys.size(); i++) {
                responses.put(keys.get(i), all.resultAt(i));
              }
              Call next =
                  call.nextRound(
                      new Input(
                          responses, asked.state() == null ? new JsonObject() : asked.state()));
              if (inFlight != null) {
                inFlight.callId = next.id();
              }
              return dispatch(next, channel, onStep)
                  .compose(again -> answer(next, channel, onStep, inFlight, again));
            },
            failed ->
                Future.succeededFuture(
                    ToolResult.error(
                            tool + " could not get the client's input: " + failed.getMessage())
                        .toJson()));
  }

  /** Cancels the call answering {@code requestId}; its response will not be sent. */
  void cancel(Session session, Object requestId, String reason) {
    InFlightCall call = session.calls().get(String.valueOf(requestId));
    if (call != null && !call.cancelled) {
      call.cancelled = true;
      publishCancel(call.callId, reason);
    }
  }

  /**
   * Stops every call and modern task of a principal {@code gone} says has signed out (a revoked or
   * expired credential): a stateless request belongs to no session whose end would stop it.
   */
  void signOut(Predicate<Principal> gone) {
    String reason = "the sign-in that started it ended (its token was revoked or expired)";
    running.forEach(
        (call, principal) -> {
          if (gone.test(principal)) {
            publishCancel(call.callId, reason);
          }
        });
    modernTasks.values().stream()
        .filter(task -> gone.test(task.principal))
        .forEach(
            task -> {
              if (task.cancel(reason)) {
                pendingRounds.remove(task.taskId);
                publishCancel(task.roundId(), reason);
                taskListener.accept(task);
              }
            });
  }

  void cancelAll(Session session, String reason) {
    session.calls().values().forEach(c -> publishCancel(c.callId, reason));
    tasks.dropSession(session.id());
  }

  private void publishCancel(String callId, String reason) {
    vertx
        .eventBus()
        .publish(
            CallHeaders.CANCEL_ADDRESS, new JsonObject().put("call", callId).put("reason", reason));
  }

  private JsonObject startTask(Call untimed, String problem, Object taskParams) {
    long ttl = taskTtlMillis;
    if (taskParams instanceof JsonObject p && p.getValue("ttl") instanceof Number n) {
      ttl = Math.min(Math.max(1000, n.longValue()), taskTtlMillis);
    }
    Call call = untimed.asTask(ttl);
    Session session = call.session();
    McpTask task = tasks.create(call.id(), session.id(), ttl);
    ClientChannel toSession =
        message -> {
          ClientChannel standalone = session.standalone();
          if (standalone != null) {
            standalone.send(message);
          }
        };
    Consumer<JsonObject> onStep =
        step -> {
          if (!jobStopped(step)) {
            task.message(ProgressRelay.said(step));
          } else if (task.end(McpTask.CANCELLED, step.getString("message"))) {
            notifyStatus(session, task);
          }
        };
    Future<JsonObject> run =
        problem != null
            ? Future.succeededFuture(ToolResult.error(problem).toJson())
            : dispatch(call, toSession, onStep)
                .compose(result -> answer(call, toSession, onStep, null, result));
    run.onComplete(
        ar -> {
          boolean ok = ar.succeeded() && !ar.result().getBoolean("isError", false);
          if (task.end(
              ok ? McpTask.COMPLETED : McpTask.FAILED, ok ? null : "the tool reported an error")) {
            notifyStatus(session, task);
          }
          JsonObject result = ar.succeeded() ? ar.result().copy() : null;
          if (result != null) {
            result.put(
                "_meta",
                new JsonObject().put(RELATED_TASK, new JsonObject().put("taskId", task.taskId)));
          }
          task.settle(result, ar.cause());
        });
    return new JsonObject().put("task", task.toJson());
  }

  /** -32021 for a request that needs the tasks extension it did not declare. */
  static McpException withoutTasks(String message) {
    return new McpException(
        JsonRpc.MISSING_CLIENT_CAPABILITY,
        message,
        new JsonObject()
            .put(
                "requiredCapabilities",
                new JsonObject()
                    .put("extensions", new JsonObject().put(TASKS_EXTENSION, new JsonObject()))));
  }

  /** Whether a modern request declared the tasks extension in its capabilities. */
  static boolean tasksDeclared(Session session) {
    return session.clientCapabilities().getValue("extensions") instanceof JsonObject extensions
        && extensions.containsKey(TASKS_EXTENSION);
  }

  /** Tells who listens (a status notification) that a modern task changed. */
  void onTaskChange(Consumer<ModernTask> listener) {
    taskListener = listener;
  }

  /** The modern task {@code taskId} of {@code principal}'s credential, if it exists. */
  ModernTask modernTask(String taskId, Principal principal) {
    ModernTask task = taskId == null ? null : modernTasks.get(taskId);
    return task != null && task.owner.equals(principal.owner()) ? task : null;
  }

  /**
   * Starts a modern task: stored before its handle is answered, so a {@code tasks/get} right after
   * finds it; the call's stream may close at once without cancelling it.
   */
  private JsonObject startModernTask(Call call, String problem) {
    ModernTask task =
        new ModernTask(call.id(), call.session().principal(), taskTtlMillis, call.id());
    modernTasks.put(task.taskId, task);
    if (problem != null) {
      task.completed(ToolResult.error(problem).toJson());
    } else {
      runTaskRound(task, call);
    }
    return task.created();
  }

  private void runTaskRound(ModernTask task, Call call) {
    task.roundId(call.id());
    dispatch(call, message -> {}, step -> jobMoved(task, step))
        .onComplete(
            ar -> {
              if (ar.succeeded() && ar.result().inputRequired() != null) {
                ToolResult.InputRequired asked = ar.result().inputRequired();
                task.inputRequired(asked.inputRequests(), asked.state());
                pendingRounds.put(task.taskId, call);
              } else if (ar.succeeded()) {
                task.completed(ar.result().toJson());
              } else if (ar.cause() instanceof McpException e) {
                task.failed(e.code(), e.getMessage());
              } else {
                task.failed(JsonRpc.INTERNAL_ERROR, "internal error");
              }
              taskListener.accept(task);
            });
  }

  /**
   * A step of the task's job, which is the task seen from the job view (one id): a working step
   * becomes the task's status message, a stopped job cancels the task.
   */
  private void jobMoved(ModernTask task, JsonObject step) {
    if (jobStopped(step)) {
      if (task.cancel(step.getString("message"))) {
        taskListener.accept(task);
      }
    } else {
      task.progressed(ProgressRelay.said(step));
    }
  }

  /**
   * Whether a job step is the job's end by cancellation (the job view's cancel button, {@code
   * DELETE /api/jobs/ID}): the task of that job, in either era, is then cancelled, not completed
   * with the tool's "was cancelled".
   */
  private static boolean jobStopped(JsonObject step) {
    return JobStatus.CANCELLED.wireName().equals(step.getString("status"));
  }

  /**
   * {@code tasks/get}: the task as it stands; -32602 for one that is unknown or not the caller's.
   */
  JsonObject modernTaskGet(Session session, JsonObject params) {
    return ownTask(session, params).detailed();
  }

  /** {@code tasks/update}: answers to its input requests; the last answer runs the tool again. */
  JsonObject modernTaskUpdate(Session session, JsonObject params) {
    ModernTask task = ownTask(session, params);
    JsonObject responses =
        params.getValue("inputResponses") instanceof JsonObject r ? r : new JsonObject();
    ModernTask.Resume resume = task.answer(responses);
    Call asked = resume == null ? null : pendingRounds.remove(task.taskId);
    if (asked != null) {
      taskListener.accept(task);
      runTaskRound(task, asked.nextRound(new Input(resume.responses(), resume.state())));
    }
    return new JsonObject();
  }

  /** {@code tasks/cancel}: acknowledged whatever the task's state; a running one is stopped. */
  JsonObject modernTaskCancel(Session session, JsonObject params) {
    ModernTask task = ownTask(session, params);
    if (task.cancel("cancelled by the client")) {
      pendingRounds.remove(task.taskId);
      publishCancel(task.roundId(), "cancelled by the client");
      taskListener.accept(task);
    }
    return new JsonObject();
  }

  private ModernTask ownTask(Session session, JsonObject params) {
    if (!tasksDeclared(session)) {
      throw withoutTasks(
          "tasks/* need the " + TASKS_EXTENSION + " extension in this request's capabilities");
    }
    Object id = params.getValue("taskId");
    ModernTask task = id instanceof String s ? modernTask(s, session.principal()) : null;
    if (task == null) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS,
          "Failed to retrieve task: no task "
              + Quote.of(String.valueOf(id))
              + " (unknown or expired)");
    }
    return task;
  }

  JsonObject taskGet(Session session, JsonObject params) {
    return tasks.get(session, params.getString("taskId")).toJson();
  }

  Future<JsonObject> taskResult(Session session, JsonObject params) {
    return tasks.get(session, params.getString("taskId")).result();
  }

  JsonObject taskList(Session session, JsonObject params, int pageSize) {
    return Cursors.page(tasks.listing(session), params.getString("cursor"), pageSize, "tasks");
  }

  JsonObject taskCancel(Session session, JsonObject params) {
    McpTask task = tasks.get(session, params.getString("taskId"));
    if (!task.end(McpTask.CANCELLED, "cancelled by the client")) {
      throw new McpException(
          JsonRpc.INVALID_PARAMS,
          "task " + task.taskId + " is already " + task.status() + " and cannot be cancelled");
    }
    publishCancel(task.taskId, "cancelled by the client");
    notifyStatus(session, task);
    return task.toJson();
  }

  private void notifyStatus(Session session, McpTask task) {
    ClientChannel standalone = session.standalone();
    if (standalone != null) {
      standalone.send(JsonRpc.notification("notifications/tasks/status", task.toJson()));
    }
  }

  private Future<ToolResult> dispatch(
      Call call, ClientChannel channel, Consumer<JsonObject> onStep) {
    Principal principal = call.session().principal();
    boolean job = call.tool().spec().mode() == ExecutionMode.JOB;
    String refusal = fairUse.admit(principal, job);
    if (refusal != null) {
      return Future.succeededFuture(ToolResult.error(refusal));
    }
    return send(call, channel, onStep).onComplete(done -> fairUse.done(principal, job));
  }

  /** Asks the tool's family over the event bus, with the call's deadline, steps and callbacks. */
  private Future<ToolResult> send(Call call, ClientChannel channel, Consumer<JsonObject> onStep) {
    Session session = call.session();
    ToolRegistry.RegisteredTool tool = call.tool();
    String callId = call.id();
    ToolSpec spec = tool.spec();
    long timeout = call.timeoutMillis(defaultTimeoutMillis);
    boolean onEventLoop = spec.mode() == ExecutionMode.EVENT_LOOP;
    DeliveryOptions options =
        new DeliveryOptions()
            // a blocking tool answers at its deadline by itself; an event-loop tool is timed here
            .setSendTimeout(onEventLoop ? timeout : timeout + 5_000)
            .addHeader(CallHeaders.TOOL, spec.name())
            .addHeader(CallHeaders.SESSION, session.id())
            .addHeader(CallHeaders.REQUEST, String.valueOf(call.requestId()))
            .addHeader(CallHeaders.ACCOUNT, session.account())
            .addHeader(CallHeaders.DEADLINE, String.valueOf(System.currentTimeMillis() + timeout))
            .addHeader(CallHeaders.CALL, callId)
            .addHeader(CallHeaders.CLIENT_CAPABILITIES, session.clientCapabilities().encode());
    if (!call.input().responses().isEmpty()) {
      options.addHeader(CallHeaders.INPUT_RESPONSES, call.input().responses().encode());
    }
    if (!call.input().state().isEmpty()) {
      options.addHeader(CallHeaders.REQUEST_STATE, call.input().state().encode());
    }
    if (call.progressToken() != null) {
      options.addHeader(CallHeaders.PROGRESS_TOKEN, String.valueOf(call.progressToken()));
    }
    Future<Message<Object>> reply;
    List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
    if (spec.mode() == ExecutionMode.JOB) {
      ProgressRelay relay = new ProgressRelay(call.progressToken(), channel, onStep);
      consumers.add(
          vertx
              .eventBus()
              .consumer(JobRegistry.ADDRESS_PREFIX + callId, m -> relay.step(m.body())));
      consumers.add(
          vertx
              .eventBus()
              .consumer(
                  CallHeaders.CALLBACK_PREFIX + callId,
                  m -> callback(session, spec.name(), channel, m)));
      reply =
          Future.all(consumers.stream().map(MessageConsumer::completion).toList())
              .compose(
                  v ->
                      vertx
                          .eventBus()
                          .request(
                              CallHeaders.FAMILY_PREFIX + tool.family(), call.args(), options));
    } else {
      reply =
          vertx.eventBus().request(CallHeaders.FAMILY_PREFIX + tool.family(), call.args(), options);
    }
    return reply
        .map(m -> (ToolResult) m.body())
        .recover(
            failure -> {
              if (onEventLoop
                  && failure instanceof ReplyException e
                  && e.failureType() == ReplyFailure.TIMEOUT) {
                publishCancel(callId, "timed out");
                return Future.succeededFuture(
                    ToolResult.error(
                        spec.name()
                            + " timed out after "
                            + (timeout + 999) / 1000
                            + " s and was stopped; narrow the request and try again"));
              }
              return Future.failedFuture(asProtocolError(spec.name(), tool.family(), failure));
            })
        .onComplete(ar -> consumers.forEach(MessageConsumer::unregister));
  }

  private static McpException asProtocolError(String tool, String family, Throwable failure) {
    if (failure instanceof ReplyException e) {
      return switch (e.failureType()) {
        case NO_HANDLERS ->
            new McpException(JsonRpc.INTERNAL_ERROR, "the " + family + " tools are not running");
        case TIMEOUT -> new McpException(JsonRpc.INTERNAL_ERROR, tool + " did not answer in time");
        default ->
            e.failureCode() == JsonRpc.INVALID_PARAMS
                ? new McpException(JsonRpc.INVALID_PARAMS, e.getMessage())
                : new McpException(JsonRpc.INTERNAL_ERROR, "internal error while running " + tool);
      };
    }
    return new McpException(JsonRpc.INTERNAL_ERROR, "internal error while running " + tool);
  }

  /** A job-mode tool's log line or request for the client. */
  private void callback(
      Session session, String tool, ClientChannel channel, Message<JsonObject> msg) {
    JsonObject body = msg.body();
    if ("log".equals(body.getString("type"))) {
      String level = body.getString("level", "info");
      if (session.logLevel() != null && LogLevel.rank(level) >= LogLevel.rank(session.logLevel())) {
        channel.send(
            JsonRpc.notification(
                "notifications/message",
                new JsonObject()
                    .put("level", level)
                    .put("logger", tool)
                    .put("data", body.getString("message"))));
      }
      return;
    }
    String method = body.getString("method", "");
    String capability = method.substring(0, Math.max(0, method.indexOf('/')));
    if (!session.clientCapabilities().containsKey(capability)) {
      msg.fail(
          1,
          "the client did not declare the '"
              + capability
              + "' capability, so "
              + method
              + " cannot be sent");
      return;
    }
    clientRequest(session, channel, method, body.getJsonObject("params"))
        .onSuccess(msg::reply)
        .onFailure(e -> msg.fail(2, e.getMessage()));
  }

  /** Sends a request to the client; the future completes when its response arrives. */
  Future<JsonObject> clientRequest(
      Session session, ClientChannel channel, String method, JsonObject params) {
    String id = session.nextClientRequestId();
    Promise<JsonObject> promise = Promise.promise();
    session.clientRequests().put(id, promise);
    channel.send(JsonRpc.request(id, method, params));
    return promise.future().onComplete(ar -> session.clientRequests().remove(id));
  }

  /**
   * One tools/call: who asked, for which tool, with what, and its id (also its job's and task's).
   */
  private record Call(
      Session session,
      Object requestId,
      ToolRegistry.RegisteredTool tool,
      JsonObject args,
      Object progressToken,
      String id,
      Input input,
      int round,
      long taskMillis) {

    /** The same call again with the client's answers: a round of its own, with its own id. */
    Call nextRound(Input next) {
      return new Call(
          session,
          requestId,
          tool,
          args,
          progressToken,
          id + "." + (round + 1),
          next,
          round + 1,
          taskMillis);
    }

    /** The call run as a task: it may work as long as the task is kept, not a call's deadline. */
    Call asTask(long ttlMillis) {
      return new Call(session, requestId, tool, args, progressToken, id, input, round, ttlMillis);
    }

    long timeoutMillis(long defaultMillis) {
      if (taskMillis > 0) {
        return taskMillis;
      }
      return tool.spec().timeout() != null ? tool.spec().timeout().toMillis() : defaultMillis;
    }
  }

  /** A retry's answers to the tool's input requests, and the state the tool kept. */
  private record Input(JsonObject responses, JsonObject state) {}

  /** Turns job steps into progress notifications carrying the client's own token. */
  private static final class ProgressRelay {
    /** A step as a person reads it: its name and what it said. */
    static String said(JsonObject step) {
      return step.getString("step") + ": " + step.getString("message");
    }

    private final Object token;
    private final ClientChannel channel;
    private final Consumer<JsonObject> onStep;
    private double last;

    ProgressRelay(Object token, ClientChannel channel, Consumer<JsonObject> onStep) {
      this.token = token;
      this.channel = channel;
      this.onStep = onStep;
    }

    void step(JsonObject event) {
      onStep.accept(event);
      if (token == null) {
        return;
      }
      last = Math.max(last, event.getDouble("progress", 0d));
      JsonObject params =
          new JsonObject()
              .put("progressToken", token)
              .put("progress", last)
              .put("message", said(event))
              .put("_meta", new JsonObject().put("traceStep", event));
      if (event.getValue("total") != null) {
        params.put("total", event.getValue("total"));
      }
      channel.send(JsonRpc.notification("notifications/progress", params));
    }
  }
}
