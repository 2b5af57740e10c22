package dev.sonde.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.Sonde;
import dev.sonde.config.ConfigLoader;
import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import dev.sonde.support.SharedSonde;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Toolsets through MCP, in both eras and on both socket transports: the local account of a Sonde
 * configured with {@code data-query} lists only those tools, and a tool outside them called by name
 * changes nothing in its workspace; prompts and resources follow the tools they stand for.
 */
class ToolsetsOverMcpTest {
  static final List<String> DATA_QUERY =
      List.of(
          "list_tables",
          "describe_table",
          "execute_query",
          "list_table_tags",
          "compile_chart_from_spec",
          "compile_tql_from_spec",
          "forecast_table");
  static Path dataDir;
  static InProcessSonde dataQuery;
  static long ids = 1;

  @BeforeAll
  static void start() throws IOException {
    dataDir = Files.createTempDirectory("sonde-toolsets-");
    dataQuery =
        new InProcessSonde(
            Map.of("auth.localToolsets", "data-query", "data.dir", dataDir.toString()));
  }

  @AfterAll
  static void stop() {
    dataQuery.close();
  }

  static List<McpClient> clients(int port) {
    List<McpClient> clients = new ArrayList<>();
    for (String transport : List.of("http", "websocket")) {
      McpClient legacy = dataQuery.connect(transport);
      legacy.initialize("2025-11-25");
      clients.add(legacy);
    }
    clients.add(HttpMcpClient.modern(port));
    return clients;
  }

  static List<String> names(JsonObject result, String list, String key) {
    return result.getJsonArray(list).stream().map(e -> ((JsonObject) e).getString(key)).toList();
  }

  static JsonObject call(McpClient client, String tool, JsonObject arguments) {
    return client.request(
        ids++, "tools/call", new JsonObject().put("name", tool).put("arguments", arguments));
  }

  /** The completion of a connection name for {@code ref}. */
  static JsonObject complete(McpClient client, String type, String ref) {
    JsonObject reference =
        new JsonObject().put("type", type).put(type.equals("ref/prompt") ? "name" : "uri", ref);
    return client
        .request(
            ids++,
            "completion/complete",
            new JsonObject()
                .put("ref", reference)
                .put("argument", new JsonObject().put("name", "connection").put("value", "")))
        .getJsonObject("result")
        .getJsonObject("completion");
  }

  static String refusal(JsonObject response) {
    JsonObject error = response.getJsonObject("error");
    assertNotNull(error, "expected a refusal: " + response.encode());
    assertEquals(-32602, error.getInteger("code"), error.encode());
    return error.getString("message");
  }

  @Test
  void aDataQueryAccountListsItsToolsAndCannotCallOthersByName() throws IOException {
    Path workspace = dataDir.resolve("workspace").resolve("local");
    Files.createDirectories(workspace);
    Path kept = Files.writeString(workspace.resolve("kept.chart.json"), "{}");
    for (McpClient client : clients(dataQuery.port())) {
      JsonObject listed = client.request(ids++, "tools/list", null).getJsonObject("result");
      assertEquals(
          DATA_QUERY.stream().sorted().toList(),
          names(listed, "tools", "name").stream().sorted().toList());
      assertFalse(
          call(client, "execute_query", new JsonObject().put("sql", "SELECT 42"))
              .getJsonObject("result")
              .getBoolean("isError", false));
      assertEquals(
          "tool create_folder is not in your toolsets (data-query); tools/list shows the tools"
              + " you may call",
          refusal(
              call(client, "create_folder", new JsonObject().put("folder_name", "made-by-agent"))));
      assertTrue(
          refusal(call(client, "delete_file", new JsonObject().put("filename", "kept.chart.json")))
              .startsWith("tool delete_file is not in your toolsets"));
      assertTrue(
          refusal(call(client, "test_simple_text", new JsonObject()))
              .startsWith("tool test_simple_text is not in your toolsets"));
    }
    assertFalse(Files.exists(workspace.resolve("made-by-agent")), "a refused call made a folder");
    assertEquals("{}", Files.readString(kept), "a refused call deleted a file");
  }

  @Test
  void theLocalPersonSeesEveryJobWhateverItsToolsets() {
    var job =
        dataQuery
            .sonde()
            .jobs()
            .start(
                java.util.UUID.randomUUID().toString(),
                "demo_generation",
                "system",
                null,
                dev.sonde.core.Call.statementsOnly("t"));
    assertTrue(dataQuery.api("/api/jobs").encode().contains(job.id()), "a job of no account");
    dataQuery.sonde().jobs().cancel(job.id(), "done");
  }

  @Test
  void promptsAndResourcesFollowTheToolsTheyStandFor() {
    McpClient everything = SharedSonde.get().connect("http");
    everything.initialize("2025-11-25");
    String docsTemplate = "sonde://docs/{source}/{path}";
    assertTrue(
        names(
                everything.request(ids++, "resources/templates/list", null).getJsonObject("result"),
                "resourceTemplates",
                "uriTemplate")
            .contains(docsTemplate));
    for (McpClient client : clients(dataQuery.port())) {
      JsonObject prompts = client.request(ids++, "prompts/list", null).getJsonObject("result");
      List<String> database =
          names(prompts, "prompts", "name").stream().filter(p -> !p.startsWith("test_")).toList();
      // the one database prompt whose guidance calls only describe_table and execute_query
      assertEquals(List.of("safe_data_analysis"), database);
      assertTrue(
          refusal(
                  client.request(
                      ids++,
                      "prompts/get",
                      new JsonObject()
                          .put("name", "summarize_table")
                          .put("arguments", new JsonObject().put("table_name", "orders"))))
              .contains("is not in your toolsets (data-query)"));
      JsonObject completion =
          client
              .request(
                  ids++,
                  "completion/complete",
                  new JsonObject()
                      .put(
                          "ref",
                          new JsonObject().put("type", "ref/prompt").put("name", "summarize_table"))
                      .put("argument", new JsonObject().put("name", "connection").put("value", "")))
              .getJsonObject("result");
      assertEquals(new JsonArray(), completion.getJsonObject("completion").getJsonArray("values"));
      // completion answers only for a template or prompt that has the variable, and may be read
      JsonObject named = complete(client, "ref/resource", "sonde://schema/{connection}/{table}");
      assertTrue(named.getJsonArray("values").contains("demo"), named.encode());
      for (String[] elsewhere :
          new String[][] {
            {"ref/resource", "sonde://guide"},
            {"ref/resource", "sonde://docs/{source}/{path}"},
            {"ref/prompt", "no_such_prompt"}
          }) {
        assertEquals(
            new JsonArray(),
            complete(client, elsewhere[0], elsewhere[1]).getJsonArray("values"),
            String.join(" ", elsewhere));
      }
      JsonObject resources = client.request(ids++, "resources/list", null).getJsonObject("result");
      List<String> uris = names(resources, "resources", "uri");
      assertTrue(uris.contains("sonde://guide"), uris.toString());
      assertFalse(uris.stream().anyMatch(u -> u.startsWith("sonde://docs/")), uris.toString());
      assertTrue(
          refusal(
                  client.request(
                      ids++,
                      "resources/read",
                      new JsonObject().put("uri", "sonde://docs/sonde/README.md")))
              .contains("shows what get_full_document_content reads"));
      JsonObject templates =
          client.request(ids++, "resources/templates/list", null).getJsonObject("result");
      List<String> uriTemplates = names(templates, "resourceTemplates", "uriTemplate");
      assertTrue(
          uriTemplates.contains("sonde://schema/{connection}/{table}"), uriTemplates.toString());
      assertFalse(uriTemplates.contains(docsTemplate), uriTemplates.toString());
    }
  }

  @Test
  void generalLeavesOutTheDeleteToolsAndAGrantedSetPutsOneBack() throws IOException {
    Path dir = Files.createTempDirectory("sonde-toolsets-general-");
    InProcessSonde general =
        new InProcessSonde(
            Map.of(
                "auth.localToolsets", "general,cleanup",
                "auth.toolsets.cleanup.tools", "delete_file",
                "data.dir", dir.toString()));
    try {
      Path workspace = Files.createDirectories(dir.resolve("workspace").resolve("local"));
      Path doomed = Files.writeString(workspace.resolve("doomed.chart.json"), "{}");
      McpClient client = HttpMcpClient.modern(general.port());
      List<String> tools =
          names(client.request(ids++, "tools/list", null).getJsonObject("result"), "tools", "name");
      assertTrue(
          tools.contains("delete_file") && tools.contains("create_folder"), tools.toString());
      assertFalse(
          tools.contains("delete_dashboard") || tools.contains("remove_chart_from_dashboard"),
          tools.toString());
      assertTrue(
          refusal(call(client, "delete_dashboard", new JsonObject().put("filename", "x.dsh")))
              .contains("not in your toolsets (general, cleanup)"));
      JsonObject deleted =
          call(client, "delete_file", new JsonObject().put("filename", "doomed.chart.json"))
              .getJsonObject("result");
      assertFalse(deleted.getBoolean("isError", false), deleted.encode());
      assertFalse(Files.exists(doomed), "the granted delete tool ran");
    } finally {
      general.close();
    }
  }

  @Test
  void aToolsetThatDoesNotExistStopsTheStartSayingWhatToChange() throws Exception {
    for (Map.Entry<Map<String, String>, String> bad :
        Map.of(
                Map.of("auth.localToolsets", "dataquery"),
                "auth.localToolsets: unknown toolset 'dataquery'; the toolsets are [all, general,"
                    + " data-query",
                Map.of(
                    "auth.localToolsets", "mine",
                    "auth.toolsets.mine.tools", "execute_querry"),
                "auth.toolsets.mine names [execute_querry], which no deployed family serves")
            .entrySet()) {
      Map<String, String> flags = new java.util.HashMap<>(bad.getKey());
      flags.put("server.port", "0");
      flags.put("databases.connections.demo.demo", "false");
      flags.put("databases.connections.demo.path", "");
      flags.put("data.dir", Files.createTempDirectory("sonde-toolsets-bad-").toString());
      var starting =
          Sonde.start(ConfigLoader.load(null, Map.of(), flags))
              .toCompletionStage()
              .toCompletableFuture();
      try {
        starting.get(2, TimeUnit.MINUTES).close();
        throw new AssertionError("Sonde started with " + bad.getKey());
      } catch (ExecutionException e) {
        assertTrue(e.getCause().getMessage().startsWith(bad.getValue()), e.getCause().getMessage());
      }
    }
  }
}
