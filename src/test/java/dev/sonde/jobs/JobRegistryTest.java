package dev.sonde.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.Call;
import dev.sonde.core.HostPaths;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JobRegistryTest {
  final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void stepsShowThisHostsFoldersAsPlaceholdersAndTheOwnerNotTheSession() {
    String dataDir = java.nio.file.Path.of("data").toAbsolutePath().toString();
    JobRegistry jobs = new JobRegistry(vertx, 100, 10, HostPaths.of("data"));
    Job job = jobs.start("j9", "tool", "session-secret", "a", Call.statementsOnly("test"));
    job.step(
        "read",
        true,
        "IO Error: " + dataDir + "/x.duckdb",
        1,
        null,
        new JsonObject().put("file", dataDir));
    jobs.finish(job, false, "could not open " + dataDir + "/y");
    String all = job.detail().encode();
    assertFalse(all.contains(dataDir), all);
    assertTrue(all.contains("IO Error: <data>/x.duckdb") && all.contains("<data>/y"), all);
    assertFalse(all.contains("session-secret"), all);
    assertEquals(
        job.summary().getString("owner"),
        jobs.start("j10", "tool", "session-secret", "a", Call.statementsOnly("test")).owner());
  }

  @Test
  void stepsAreNumberedAndProgressNeverGoesDown() {
    JobRegistry jobs = new JobRegistry(vertx, 100, 10, HostPaths.of("data"));
    Job job = jobs.start("j1", "tool", "s", "a", Call.statementsOnly("test"));
    job.step("a", true, "first", 5, 10d, null);
    job.step("b", true, "back", 2, null, null);
    job.step("c", "auto");
    List<JobEvent> events = job.eventsAfter(0);
    assertEquals(List.of(1L, 2L, 3L, 4L), events.stream().map(JobEvent::seq).toList());
    assertEquals(List.of(0.0, 5.0, 5.0, 6.0), events.stream().map(JobEvent::progress).toList());
    assertEquals(10d, events.get(3).total());
    assertEquals(List.of(3L, 4L), job.eventsAfter(2).stream().map(JobEvent::seq).toList());
  }

  @Test
  void historyIsBoundedPerJob() {
    JobRegistry jobs = new JobRegistry(vertx, 10, 10, HostPaths.of("data"));
    Job job = jobs.start("j1", "tool", "s", "a", Call.statementsOnly("test"));
    for (int i = 0; i < 50; i++) {
      job.step("s" + i, "x");
    }
    List<JobEvent> kept = job.eventsAfter(0);
    assertEquals(10, kept.size());
    assertEquals(51L, kept.get(9).seq());
  }

  @Test
  void cancellationRunsHooksWakesSleepersAndIsFinal() throws Exception {
    JobRegistry jobs = new JobRegistry(vertx, 100, 10, HostPaths.of("data"));
    Job job = jobs.start("j1", "tool", "s", "a", Call.statementsOnly("test"));
    AtomicInteger hooks = new AtomicInteger();
    job.call().onStop(hooks::incrementAndGet);
    CountDownLatch woke = new CountDownLatch(1);
    Thread sleeper =
        new Thread(
            () -> {
              try {
                if (!job.call().sleep(60_000)) {
                  woke.countDown();
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    sleeper.start();
    assertTrue(jobs.cancel("j1", "enough"));
    assertTrue(woke.await(5, TimeUnit.SECONDS));
    assertEquals(1, hooks.get());
    assertEquals(JobStatus.CANCELLED, job.status());
    assertFalse(jobs.cancel("j1", "again"), "a finished job cannot be cancelled");
    assertNull(job.step("late", "ignored"), "steps after the end are dropped");
    jobs.finish(job, true, "too late");
    assertEquals(JobStatus.CANCELLED, job.status());
    job.call().onStop(hooks::incrementAndGet);
    assertEquals(2, hooks.get(), "a hook added after cancellation runs at once");
  }

  @Test
  void finishedJobsAreRetainedUpToTheLimit() {
    JobRegistry jobs = new JobRegistry(vertx, 100, 2, HostPaths.of("data"));
    for (int i = 0; i < 5; i++) {
      jobs.finish(jobs.start("j" + i, "tool", "s", "a", Call.statementsOnly("test")), true, "done");
    }
    assertEquals(2, jobs.list().size());
    assertNull(jobs.get("j0"));
    assertEquals("succeeded", jobs.get("j4").summary().getString("status"));
  }

  @Test
  void eventsArePublishedPerJobAndOnTheAllJobsAddressInGlobalOrder() throws Exception {
    JobRegistry jobs = new JobRegistry(vertx, 100, 10, HostPaths.of("data"));
    List<JsonObject> perJob = new CopyOnWriteArrayList<>();
    List<JsonObject> all = new CopyOnWriteArrayList<>();
    vertx
        .eventBus()
        .<JsonObject>consumer(JobRegistry.ADDRESS_PREFIX + "j1", m -> perJob.add(m.body()))
        .completion()
        .await();
    vertx
        .eventBus()
        .<JsonObject>consumer(JobRegistry.ALL_ADDRESS, m -> all.add(m.body()))
        .completion()
        .await();
    Thread[] writers = new Thread[4];
    for (int w = 0; w < writers.length; w++) {
      Job job = jobs.start("j" + (w + 1), "tool", "s", "a", Call.statementsOnly("test"));
      writers[w] =
          new Thread(
              () -> {
                for (int i = 0; i < 100; i++) {
                  job.step("s", "x");
                }
              });
    }
    for (Thread t : writers) {
      t.start();
    }
    for (Thread t : writers) {
      t.join();
    }
    long end = System.currentTimeMillis() + 5000;
    while (all.size() < 404 && System.currentTimeMillis() < end) {
      Thread.sleep(10);
    }
    assertEquals(101, perJob.size());
    List<Long> replay = jobs.eventsAfter(0).stream().map(JobEvent::globalSeq).toList();
    assertEquals(404, replay.size());
    for (int i = 1; i < replay.size(); i++) {
      assertEquals(
          replay.get(i - 1) + 1,
          replay.get(i),
          "the replay buffer is in global order without gaps");
    }
    assertEquals(404L, jobs.lastGlobalSeq());
  }

  @Test
  void cancelOverTheEventBus() {
    JobRegistry jobs = new JobRegistry(vertx, 100, 10, HostPaths.of("data"));
    jobs.start("j1", "tool", "s", "a", Call.statementsOnly("test"));
    JsonObject reply =
        vertx
            .eventBus()
            .<JsonObject>request(JobRegistry.CANCEL_ADDRESS, new JsonObject().put("jobId", "j1"))
            .await()
            .body();
    assertTrue(reply.getBoolean("cancelled"));
    assertEquals(JobStatus.CANCELLED, jobs.get("j1").status());
  }
}
