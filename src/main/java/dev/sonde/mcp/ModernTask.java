package dev.sonde.mcp;

import dev.sonde.auth.Principal;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * A task of the {@code io.modelcontextprotocol/tasks} extension: a tools/call answered later,
 * polled with {@code tasks/get}, fed with {@code tasks/update}, stopped with {@code tasks/cancel}.
 * It belongs to the credential that started it ({@link Principal#owner}), not to a connection, so
 * any transport reads it, and another token of the same account does not.
 */
final class ModernTask {
  static final String WORKING = "working";
  static final String INPUT_REQUIRED = "input_required";
  static final String COMPLETED = "completed";
  static final String FAILED = "failed";
  static final String CANCELLED = "cancelled";
  static final long POLL_INTERVAL_MS = 500;

  final String taskId;
  final String owner;

  /** Who started it: a sign-in that ends stops it. */
  final Principal principal;

  final long ttlMs;
  final Instant createdAt = Instant.now();
  private Instant lastUpdatedAt = createdAt;
  private String status = WORKING;
  private String statusMessage;
  private JsonObject result;
  private JsonObject error;
  private JsonObject pending = new JsonObject();
  private JsonObject answered = new JsonObject();
  private JsonObject state = new JsonObject();
  private volatile String roundId;

  ModernTask(String taskId, Principal principal, long ttlMs, String roundId) {
    this.taskId = taskId;
    this.principal = principal;
    this.owner = principal.owner();
    this.ttlMs = ttlMs;
    this.roundId = roundId;
  }

  synchronized String status() {
    return status;
  }

  synchronized boolean terminal() {
    return status.equals(COMPLETED) || status.equals(FAILED) || status.equals(CANCELLED);
  }

  /** The call id of the round now running, to cancel it by. */
  String roundId() {
    return roundId;
  }

  void roundId(String id) {
    roundId = id;
  }

  /** The step a working task has reached, said in its status message (the spec's progress). */
  synchronized void progressed(String message) {
    if (status.equals(WORKING)) {
      statusMessage = message;
      lastUpdatedAt = Instant.now();
    }
  }

  synchronized void completed(JsonObject toolResult) {
    if (!terminal()) {
      result = toolResult;
      move(COMPLETED, null);
    }
  }

  synchronized void failed(int code, String message) {
    if (!terminal()) {
      error = new JsonObject().put("code", code).put("message", message);
      move(FAILED, message);
    }
  }

  /** Marks the task cancelled; false when it had already ended. */
  synchronized boolean cancel(String reason) {
    if (terminal()) {
      return false;
    }
    move(CANCELLED, reason);
    return true;
  }

  synchronized void inputRequired(JsonObject inputRequests, JsonObject kept) {
    if (!terminal()) {
      pending = inputRequests.copy();
      answered = new JsonObject();
      state = kept == null ? new JsonObject() : kept;
      move(INPUT_REQUIRED, "waiting for the client's input: " + pending.fieldNames());
    }
  }

  /**
   * Takes the answers to keys still outstanding (others are ignored); when none is left, returns
   * every answer of the round with the state to run the tool again, else null.
   */
  synchronized Resume answer(JsonObject responses) {
    if (!status.equals(INPUT_REQUIRED)) {
      return null;
    }
    responses.forEach(
        e -> {
          if (pending.containsKey(e.getKey())) {
            pending.remove(e.getKey());
            answered.put(e.getKey(), e.getValue());
          }
        });
    if (!pending.isEmpty()) {
      lastUpdatedAt = Instant.now();
      return null;
    }
    move(WORKING, null);
    return new Resume(answered, state);
  }

  /** The answers of a finished round of input, and what the tool kept. */
  record Resume(JsonObject responses, JsonObject state) {}

  private void move(String next, String message) {
    status = next;
    statusMessage = message;
    lastUpdatedAt = Instant.now();
  }

  /**
   * Past its lifetime and not running: ended, or waiting for input nobody gave (a client that
   * walked away must not keep it, and the call it would resume, for ever).
   */
  synchronized boolean expired(long now) {
    return (terminal() || status.equals(INPUT_REQUIRED)) && now - createdAt.toEpochMilli() > ttlMs;
  }

  /** The task's seed, answered to the tools/call that created it. */
  synchronized JsonObject created() {
    return base().put("resultType", "task");
  }

  /** What {@code tasks/get} (and a status notification) says: the task with its payload. */
  synchronized JsonObject detailed() {
    JsonObject json = base();
    switch (status) {
      case INPUT_REQUIRED -> json.put("inputRequests", pending.copy());
      case COMPLETED -> json.put("result", result);
      case FAILED -> json.put("error", error);
      default -> {}
    }
    return json;
  }

  private JsonObject base() {
    JsonObject json =
        new JsonObject()
            .put("taskId", taskId)
            .put("status", status)
            .put("createdAt", createdAt.toString())
            .put("lastUpdatedAt", lastUpdatedAt.toString())
            .put("ttlMs", ttlMs)
            .put("pollIntervalMs", POLL_INTERVAL_MS);
    if (statusMessage != null) {
      json.put("statusMessage", statusMessage);
    }
    return json;
  }
}
