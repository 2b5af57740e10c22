package dev.sonde.mcp;

import dev.sonde.core.Quote;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The tasks of this node's sessions, dropped when their time to live has passed. */
final class TaskStore {
  private final Map<String, McpTask> tasks = new ConcurrentHashMap<>();

  McpTask create(String taskId, String sessionId, long ttlMillis) {
    McpTask task = new McpTask(taskId, sessionId, ttlMillis);
    tasks.put(taskId, task);
    return task;
  }

  /** The task if it belongs to the session; another session's task is as good as unknown. */
  McpTask get(Session session, String taskId) {
    McpTask task = taskId == null ? null : tasks.get(taskId);
    if (task == null || !task.sessionId.equals(session.id())) {
      throw new McpException(JsonRpc.INVALID_PARAMS, "unknown task " + Quote.of(taskId));
    }
    return task;
  }

  List<JsonObject> listing(Session session) {
    List<JsonObject> out = new ArrayList<>();
    tasks.values().stream()
        .filter(t -> t.sessionId.equals(session.id()))
        .sorted((a, b) -> a.createdAt.compareTo(b.createdAt))
        .forEach(t -> out.add(t.toJson()));
    return out;
  }

  void expire() {
    long now = System.currentTimeMillis();
    tasks.values().removeIf(t -> t.createdAt.toEpochMilli() + t.ttlMillis < now && t.isFinal());
  }

  void dropSession(String sessionId) {
    tasks.values().removeIf(t -> t.sessionId.equals(sessionId));
  }
}
