package dev.sonde.jobs;

import dev.sonde.core.Call;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A piece of long work as people see it: its steps and its status. Its stopping is its {@link
 * Call}'s: cancelling the job stops the call, and a call stopped from any other door (the client,
 * the deadline) marks the job cancelled. Steps may be reported from any thread; the job keeps the
 * last {@code historyLimit} of them for replay.
 */
public final class Job {
  private final String id;
  private final String tool;
  private final String owner;
  private final String account;
  private final Instant startedAt = Instant.now();
  private final int historyLimit;
  private final JobRegistry registry;
  private final Deque<JobEvent> history = new ArrayDeque<>();
  private final Call call;
  private long seq;
  private long lastStepNanos = System.nanoTime();
  private double progress;
  private Double total;
  private volatile JobStatus status = JobStatus.RUNNING;
  private volatile String lastMessage = "";
  private volatile Instant endedAt;

  Job(
      String id,
      String tool,
      String owner,
      String account,
      int historyLimit,
      JobRegistry registry,
      Call call) {
    this.id = id;
    this.call = call;
    this.tool = tool;
    this.owner = owner;
    this.account = account;
    this.historyLimit = historyLimit;
    this.registry = registry;
  }

  public String id() {
    return id;
  }

  public String tool() {
    return tool;
  }

  /** Who started it, as an opaque label: equal for one session's jobs, never its id. */
  public String owner() {
    return owner;
  }

  /** The account whose call started it. */
  public String account() {
    return account;
  }

  public Instant startedAt() {
    return startedAt;
  }

  public JobStatus status() {
    return status;
  }

  public boolean isCancelled() {
    return status == JobStatus.CANCELLED;
  }

  /** A step whose progress is one more than the last one. */
  public JobEvent step(String step, String message) {
    synchronized (this) {
      return step(step, true, message, progress + 1, total, null);
    }
  }

  /** A step with explicit progress; progress never goes down, whatever the caller passes. */
  public JobEvent step(
      String step, boolean ok, String message, double progress, Double total, JsonObject data) {
    JobEvent event;
    synchronized (this) {
      if (status.isFinal()) {
        return null;
      }
      event = record(step, ok, message, progress, total, data, JobStatus.RUNNING);
    }
    registry.publish(event);
    return event;
  }

  /** The call doing the job's work. */
  public Call call() {
    return call;
  }

  /** Stops the job's call; false when the job was already over. */
  boolean cancel(String reason) {
    if (status.isFinal()) {
      return false;
    }
    call.stop(reason);
    return isCancelled();
  }

  /** Marks the job cancelled once its call stopped, unless it ended first. */
  void stopped(String reason) {
    JobEvent event;
    synchronized (this) {
      if (status.isFinal()) {
        return;
      }
      event = record("cancelled", false, reason, progress, total, null, JobStatus.CANCELLED);
    }
    registry.publish(event);
    registry.finished(this);
  }

  void finish(boolean ok, String message) {
    JobEvent event;
    synchronized (this) {
      if (status.isFinal()) {
        return;
      }
      JobStatus end = ok ? JobStatus.SUCCEEDED : JobStatus.FAILED;
      event = record(ok ? "done" : "failed", ok, message, progress, total, null, end);
    }
    registry.publish(event);
    registry.finished(this);
  }

  JobEvent started() {
    synchronized (this) {
      return record("started", true, "started " + tool, 0, null, null, JobStatus.RUNNING);
    }
  }

  private JobEvent record(
      String step,
      boolean ok,
      String message,
      double newProgress,
      Double newTotal,
      JsonObject data,
      JobStatus newStatus) {
    long now = System.nanoTime();
    long millis = (now - lastStepNanos) / 1_000_000;
    lastStepNanos = now;
    progress = Math.max(progress, newProgress);
    if (newTotal != null) {
      total = newTotal;
    }
    status = newStatus;
    // steps reach browsers and MCP clients: this host's folders never appear in them
    message = message == null ? "" : registry.hostPaths().redact(message);
    data = data == null ? null : (JsonObject) registry.hostPaths().redactJson(data);
    lastMessage = message;
    if (newStatus.isFinal()) {
      endedAt = Instant.now();
    }
    JobEvent event =
        new JobEvent(
            id,
            ++seq,
            0,
            tool,
            step,
            ok,
            lastMessage,
            millis,
            progress,
            total,
            newStatus,
            System.currentTimeMillis(),
            data);
    history.addLast(event);
    if (history.size() > historyLimit) {
      history.removeFirst();
    }
    return event;
  }

  /** Events with a seq above {@code afterSeq}, oldest first. */
  public synchronized List<JobEvent> eventsAfter(long afterSeq) {
    List<JobEvent> out = new ArrayList<>();
    for (JobEvent e : history) {
      if (e.seq() > afterSeq) {
        out.add(e);
      }
    }
    return out;
  }

  public synchronized JsonObject summary() {
    JsonObject json =
        new JsonObject()
            .put("id", id)
            .put("tool", tool)
            .put("owner", owner)
            .put("account", account)
            .put("status", status.wireName())
            .put("startedAt", startedAt.toString())
            .put("progress", progress)
            .put("message", lastMessage)
            .put("steps", seq);
    if (total != null) {
      json.put("total", total);
    }
    if (endedAt != null) {
      json.put("endedAt", endedAt.toString());
    }
    return json;
  }

  public JsonObject detail() {
    JsonArray events = new JsonArray();
    eventsAfter(0).forEach(e -> events.add(e.toJson()));
    return summary().put("events", events);
  }
}
