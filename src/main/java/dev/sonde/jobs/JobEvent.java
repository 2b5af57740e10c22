package dev.sonde.jobs;

import io.vertx.core.json.JsonObject;

/**
 * One step of a job, as published on {@code sonde.jobs.<jobId>}. {@code seq} rises by one per job;
 * {@code globalSeq} orders events across all jobs for the browser's all-jobs stream; {@code at} is
 * the epoch millisecond of the step.
 */
public record JobEvent(
    String jobId,
    long seq,
    long globalSeq,
    String tool,
    String step,
    boolean ok,
    String message,
    long millis,
    double progress,
    Double total,
    JobStatus status,
    long at,
    JsonObject data) {

  public JobEvent withGlobalSeq(long value) {
    return new JobEvent(
        jobId, seq, value, tool, step, ok, message, millis, progress, total, status, at, data);
  }

  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("jobId", jobId)
            .put("seq", seq)
            .put("globalSeq", globalSeq)
            .put("tool", tool)
            .put("step", step)
            .put("ok", ok)
            .put("message", message)
            .put("millis", millis)
            .put("progress", progress)
            .put("status", status.wireName())
            .put("at", at)
            .put("data", data == null ? new JsonObject() : data);
    if (total != null) {
      json.put("total", total);
    }
    return json;
  }
}
