package dev.sonde.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.Call;
import dev.sonde.jobs.Job;
import dev.sonde.jobs.JobRegistry;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.SharedSonde;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The browser's jobs API: list, detail, cancel, and the event streams with replay. */
class JobsApiTest {
  final InProcessSonde sonde = SharedSonde.get();
  final JobRegistry jobs = sonde.sonde().jobs();
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  HttpResponse<String> send(String method, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sonde.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Reads {@code count} step events from an SSE endpoint, with an optional Last-Event-ID. */
  List<JsonObject> events(String path, String lastEventId, int count, List<Long> ids)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sonde.port() + path));
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    HttpResponse<InputStream> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    assertEquals("text/event-stream", response.headers().firstValue("Content-Type").orElse(""));
    List<JsonObject> out = new ArrayList<>();
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String line;
      while (out.size() < count && (line = lines.readLine()) != null) {
        if (line.startsWith("id: ")) {
          ids.add(Long.parseLong(line.substring(4)));
        } else if (line.startsWith("data: ")) {
          out.add(new JsonObject(line.substring(6)));
        }
      }
    }
    return out;
  }

  @Test
  void listDetailAndCancel() throws Exception {
    Job job =
        jobs.start(
            UUID.randomUUID().toString(), "api_test", "s", "local", Call.statementsOnly("test"));
    job.step("fetch", "fetched 3 rows");
    JsonObject list = new JsonObject(send("GET", "/api/jobs").body());
    assertTrue(
        list.getJsonArray("jobs").stream()
            .anyMatch(j -> job.id().equals(((JsonObject) j).getString("id"))));
    assertTrue(list.getLong("lastEventId") > 0);
    JsonObject detail = new JsonObject(send("GET", "/api/jobs/" + job.id()).body());
    assertEquals("running", detail.getString("status"));
    assertEquals(
        List.of("started", "fetch"),
        detail.getJsonArray("events").stream()
            .map(e -> ((JsonObject) e).getString("step"))
            .toList());
    assertEquals(202, send("DELETE", "/api/jobs/" + job.id()).statusCode());
    assertEquals("cancelled", job.status().wireName());
    HttpResponse<String> again = send("DELETE", "/api/jobs/" + job.id());
    assertEquals(409, again.statusCode());
    assertTrue(again.body().contains("already cancelled"));
    assertEquals(404, send("GET", "/api/jobs/no-such-job").statusCode());
    assertEquals(404, send("DELETE", "/api/jobs/no-such-job").statusCode());
    assertEquals(404, send("GET", "/api/jobs/no-such-job/events").statusCode());
  }

  @Test
  void aJobsStreamReplaysAfterLastEventIdWithoutGapsOrRepeats() throws Exception {
    Job job =
        jobs.start(
            UUID.randomUUID().toString(), "api_test", "s", "local", Call.statementsOnly("test"));
    for (int i = 1; i <= 5; i++) {
      job.step("step-" + i, "step " + i);
    }
    List<Long> ids = new ArrayList<>();
    List<JsonObject> all = events("/api/jobs/" + job.id() + "/events", null, 6, ids);
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), ids);
    assertEquals("step-5", all.get(5).getString("step"));
    List<Long> resumed = new ArrayList<>();
    events("/api/jobs/" + job.id() + "/events", "4", 2, resumed);
    assertEquals(List.of(5L, 6L), resumed);
    List<Long> byQuery = new ArrayList<>();
    events("/api/jobs/" + job.id() + "/events?lastEventId=5", null, 1, byQuery);
    assertEquals(List.of(6L), byQuery);
  }

  @Test
  void theAllJobsStreamUsesTheGlobalSequenceAndDeliversLiveSteps() throws Exception {
    Job job =
        jobs.start(
            UUID.randomUUID().toString(), "api_test", "s", "local", Call.statementsOnly("test"));
    long from = jobs.lastGlobalSeq();
    Thread later =
        new Thread(
            () -> {
              try {
                Thread.sleep(200);
              } catch (InterruptedException e) {
                return;
              }
              job.step("live", "arrived while the stream was open");
            });
    later.start();
    List<Long> ids = new ArrayList<>();
    List<JsonObject> live = events("/api/jobs/events", String.valueOf(from), 1, ids);
    assertEquals("live", live.get(0).getString("step"));
    assertEquals(job.id(), live.get(0).getString("jobId"));
    assertEquals(from + 1, ids.get(0));
  }
}
