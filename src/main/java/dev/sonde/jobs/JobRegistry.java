package dev.sonde.jobs;

import dev.sonde.core.Call;
import dev.sonde.core.HostPaths;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The jobs of this node: starts them, keeps a bounded history for replay, publishes each step on
 * {@code sonde.jobs.<id>} and on {@link #ALL_ADDRESS}, and cancels them on request (also over the
 * event bus at {@link #CANCEL_ADDRESS}, so any transport or node can stop a job).
 */
public final class JobRegistry {
  public static final String ADDRESS_PREFIX = "sonde.jobs.";
  public static final String ALL_ADDRESS = "sonde.jobs.all";
  public static final String CANCEL_ADDRESS = "sonde.jobs.cancel";
  private static final int GLOBAL_HISTORY = 10_000;

  private final Vertx vertx;
  private final HostPaths hostPaths;
  private final int historyPerJob;
  private final int retainFinished;
  private final Map<String, Job> jobs = new ConcurrentHashMap<>();
  private final Deque<Job> finished = new ArrayDeque<>();
  private final Deque<JobEvent> recent = new ArrayDeque<>();
  private final AtomicLong globalSeq = new AtomicLong();
  private final byte[] ownerKey = randomKey();

  public JobRegistry(Vertx vertx, int historyPerJob, int retainFinished, HostPaths hostPaths) {
    this.vertx = vertx;
    this.hostPaths = hostPaths;
    this.historyPerJob = historyPerJob;
    this.retainFinished = retainFinished;
    vertx
        .eventBus()
        .<JsonObject>consumer(
            CANCEL_ADDRESS,
            msg -> {
              boolean cancelled =
                  cancel(
                      msg.body().getString("jobId"), msg.body().getString("reason", "cancelled"));
              msg.reply(new JsonObject().put("cancelled", cancelled));
            });
  }

  /** A running job for {@code call}, which stops when the job is cancelled and vice versa. */
  public Job start(String id, String tool, String session, String account, Call call) {
    Job job = new Job(id, tool, ownerOf(session), account, historyPerJob, this, call);
    jobs.put(id, job);
    publish(job.started());
    call.onStop(() -> job.stopped(call.stopReason()));
    return job;
  }

  /**
   * A keyed hash of the session id: the jobs API shows which jobs belong together without handing
   * out the session id, which is the session's only credential.
   */
  private String ownerOf(String session) {
    if (session == null) {
      return null;
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(ownerKey, "HmacSHA256"));
      byte[] digest = mac.doFinal(session.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** This host's folders, to show as placeholders in anything a client reads. */
  public HostPaths hostPaths() {
    return hostPaths;
  }

  private static byte[] randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return key;
  }

  public void finish(Job job, boolean ok, String message) {
    job.finish(ok, message);
  }

  /** Cancels a running job; false when it is unknown or already over. */
  public boolean cancel(String id, String reason) {
    Job job = id == null ? null : jobs.get(id);
    return job != null && job.cancel(reason);
  }

  public Job get(String id) {
    return jobs.get(id);
  }

  /** Every retained job, newest first. */
  public List<Job> list() {
    List<Job> all = new ArrayList<>(jobs.values());
    all.sort(Comparator.comparing(Job::startedAt).reversed());
    return all;
  }

  public long running() {
    return jobs.values().stream().filter(j -> !j.status().isFinal()).count();
  }

  /** Events of all jobs with a global sequence above {@code afterGlobalSeq}, oldest first. */
  public synchronized List<JobEvent> eventsAfter(long afterGlobalSeq) {
    List<JobEvent> out = new ArrayList<>();
    for (JobEvent e : recent) {
      if (e.globalSeq() > afterGlobalSeq) {
        out.add(e);
      }
    }
    return out;
  }

  public long lastGlobalSeq() {
    return globalSeq.get();
  }

  /** The oldest global sequence still replayable; a client behind it has lost events. */
  public synchronized long oldestGlobalSeq() {
    return recent.isEmpty() ? globalSeq.get() : recent.peekFirst().globalSeq();
  }

  void publish(JobEvent stepEvent) {
    JobEvent event;
    // the global sequence is assigned under the lock so the replay buffer is always in order
    synchronized (this) {
      event = stepEvent.withGlobalSeq(globalSeq.incrementAndGet());
      recent.addLast(event);
      if (recent.size() > GLOBAL_HISTORY) {
        recent.removeFirst();
      }
    }
    JsonObject json = event.toJson();
    vertx.eventBus().publish(ADDRESS_PREFIX + event.jobId(), json);
    vertx.eventBus().publish(ALL_ADDRESS, json);
  }

  synchronized void finished(Job job) {
    finished.addLast(job);
    while (finished.size() > retainFinished) {
      jobs.remove(finished.removeFirst().id());
    }
  }
}
