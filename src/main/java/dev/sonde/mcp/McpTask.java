package dev.sonde.mcp;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/** An MCP task: a tools/call the client polls instead of holding open. */
final class McpTask {
  static final String WORKING = "working";
  static final String COMPLETED = "completed";
  static final String FAILED = "failed";
  static final String CANCELLED = "cancelled";

  final String taskId;
  final String sessionId;
  final long ttlMillis;
  final Instant createdAt = Instant.now();
  private final Promise<JsonObject> result = Promise.promise();
  private volatile Instant lastUpdatedAt = createdAt;
  private volatile String status = WORKING;
  private volatile String statusMessage;

  McpTask(String taskId, String sessionId, long ttlMillis) {
    this.taskId = taskId;
    this.sessionId = sessionId;
    this.ttlMillis = ttlMillis;
  }

  String status() {
    return status;
  }

  boolean isFinal() {
    return !WORKING.equals(status);
  }

  Instant lastUpdatedAt() {
    return lastUpdatedAt;
  }

  Future<JsonObject> result() {
    return result.future();
  }

  /** The step a working task has reached; a step arriving after its end changes nothing. */
  synchronized void message(String message) {
    if (!isFinal()) {
      statusMessage = message;
      lastUpdatedAt = Instant.now();
    }
  }

  /** Moves to a final status; false when it already had one. */
  synchronized boolean end(String newStatus, String message) {
    if (isFinal()) {
      return false;
    }
    status = newStatus;
    statusMessage = message;
    lastUpdatedAt = Instant.now();
    return true;
  }

  void settle(JsonObject callResult, Throwable failure) {
    if (failure != null) {
      result.tryFail(failure);
    } else {
      result.tryComplete(callResult);
    }
  }

  JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("taskId", taskId)
            .put("status", status)
            .put("ttl", ttlMillis)
            .put("createdAt", createdAt.toString())
            .put("lastUpdatedAt", lastUpdatedAt.toString())
            .put("pollInterval", 500);
    if (statusMessage != null) {
      json.put("statusMessage", statusMessage);
    }
    return json;
  }
}
