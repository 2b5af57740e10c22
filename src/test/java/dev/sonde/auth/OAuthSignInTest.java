package dev.sonde.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.support.HttpMcpClient;
import dev.sonde.support.InProcessSonde;
import dev.sonde.support.McpClient;
import dev.sonde.support.TestIssuer;
import dev.sonde.support.WebSocketMcpClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sonde as an OAuth 2.1 resource server (auth.mode: oauth) against a local authorization server
 * speaking RFC 8414 and JWKS: an access token of that issuer, for Sonde's resource, unexpired, with
 * a toolset among its scopes acts as its subject with that toolset; every other token is refused
 * with 401 (403 for scopes that name no toolset) and a challenge that points at the RFC 9728
 * metadata, and changes nothing.
 */
class OAuthSignInTest {
  static final String RESOURCE = "https://sonde.test/mcp";
  static TestIssuer issuer;
  static InProcessSonde sonde;
  static Path dataDir;
  static long ids = 1;

  @BeforeAll
  static void start() throws Exception {
    issuer = new TestIssuer();
    dataDir = Files.createTempDirectory("sonde-oauth-");
    sonde =
        new InProcessSonde(
            Map.of(
                "auth.mode",
                "oauth",
                "auth.oauth.issuer",
                issuer.issuer(),
                "auth.oauth.resource",
                RESOURCE,
                "data.dir",
                dataDir.toString()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String token = issuer.mint(issuer.claims("alice", RESOURCE, "data-query"));
    HttpResponse<String> answer;
    while ((answer = get("/api/jobs", token)).statusCode() != 200) {
      assertTrue(
          System.nanoTime() < deadline, "the issuer's keys were never read: " + answer.body());
      Thread.sleep(50);
    }
  }

  @AfterAll
  static void stop() {
    sonde.close();
    issuer.close();
  }

  static HttpResponse<String> get(String path, String token) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sonde.port() + path)).GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    try {
      return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static List<String> toolNames(McpClient client) {
    return client
        .request(ids++, "tools/list", null)
        .getJsonObject("result")
        .getJsonArray("tools")
        .stream()
        .map(t -> ((JsonObject) t).getString("name"))
        .sorted()
        .toList();
  }

  @Test
  void theMetadataDocumentNamesTheResourceItsIssuerAndTheScopes() {
    String metadataUrl = "https://sonde.test/.well-known/oauth-protected-resource/mcp";
    HttpResponse<String> refused = get("/api/jobs", null);
    assertEquals(401, refused.statusCode());
    assertEquals(
        "Bearer realm=\"sonde\", resource_metadata=\"" + metadataUrl + "\"",
        refused.headers().firstValue("WWW-Authenticate").orElse(""));
    for (String path :
        List.of(
            "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource")) {
      HttpResponse<String> answer = get(path, null);
      assertEquals(200, answer.statusCode(), path);
      JsonObject metadata = new JsonObject(answer.body());
      assertEquals(RESOURCE, metadata.getString("resource"));
      assertEquals(
          new JsonArray().add(issuer.issuer()), metadata.getJsonArray("authorization_servers"));
      assertEquals(
          new JsonArray().add("header"), metadata.getJsonArray("bearer_methods_supported"));
      assertTrue(metadata.getJsonArray("scopes_supported").contains("data-query"));
      assertTrue(metadata.getJsonArray("scopes_supported").contains("general"));
    }
  }

  @Test
  void aValidAccessTokenActsAsItsSubjectWithItsScopesInBothErasAndOnBothSockets() {
    String token = issuer.mint(issuer.claims("alice", RESOURCE, "openid data-query"));
    HttpMcpClient legacy = new HttpMcpClient(sonde.port()).bearer(token);
    legacy.initialize("2025-11-25");
    WebSocketMcpClient socket =
        new WebSocketMcpClient(sonde.port(), null, Map.of("Authorization", "Bearer " + token));
    socket.initialize("2025-11-25");
    for (McpClient client :
        List.of(legacy, socket, HttpMcpClient.modern(sonde.port()).bearer(token))) {
      assertEquals(ToolsetsOverMcpTest.DATA_QUERY.stream().sorted().toList(), toolNames(client));
      client.close();
    }
  }

  @Test
  void aRefreshedTokenKeepsItsSessionAndAnotherAccountsTokenCannotUseIt() {
    HttpMcpClient session =
        new HttpMcpClient(sonde.port())
            .bearer(issuer.mint(issuer.claims("alice", RESOURCE, "data-query")));
    session.initialize("2025-11-25");
    session.bearer(issuer.mint(issuer.claims("alice", RESOURCE, "data-query")));
    assertEquals(7, toolNames(session).size(), "a refreshed token of the same account");
    session.bearer(issuer.mint(issuer.claims("bob", RESOURCE, "general")));
    JsonObject stolen = session.request(ids++, "tools/list", null);
    assertTrue(stolen.encode().contains("unknown or expired session"), stolen.encode());
  }

  @Test
  void everyOtherTokenIsRefusedWithTheRightChallengeAndChangesNothing() throws Exception {
    long now = Instant.now().getEpochSecond();
    JsonObject good = issuer.claims("mallory", RESOURCE, "general");
    java.security.KeyPair stranger = TestIssuer.rsa();
    JsonObject header = new JsonObject().put("alg", "RS256").put("typ", "JWT").put("kid", "key-1");
    Map<String, String> invalid =
        Map.of(
            "another resource's token",
            issuer.mint(good.copy().put("aud", "https://other.example.com/mcp")),
            "another issuer's token",
            issuer.mint(good.copy().put("iss", "https://evil.example.com")),
            "an expired token",
            issuer.mint(good.copy().put("exp", now - 120)),
            "a token without exp",
            issuer.mint(withoutExp(good)),
            "a token signed by another key under the issuer's kid",
            TestIssuer.sign(header, good, stranger),
            "an unsigned token (alg none)",
            TestIssuer.encode(new JsonObject().put("alg", "none"))
                + "."
                + TestIssuer.encode(good)
                + ".",
            "an HS256 token keyed with the issuer's public key",
            hs256(good, issuer.jwks().getJsonArray("keys").getJsonObject(0).getString("n")),
            "a subject that is a path",
            issuer.mint(good.copy().put("sub", "../alice")));
    invalid.forEach(
        (what, token) -> {
          HttpResponse<String> refused = get("/api/jobs", token);
          assertEquals(401, refused.statusCode(), what + ": " + refused.body());
          String challenge = refused.headers().firstValue("WWW-Authenticate").orElse("");
          assertTrue(
              challenge.contains("error=\"invalid_token\"")
                  && challenge.contains("resource_metadata=\""),
              what + ": " + challenge);
          HttpMcpClient client = HttpMcpClient.modern(sonde.port()).bearer(token);
          HttpResponse<String> call =
              client.raw(
                  client
                      .post(
                          new JsonObject()
                              .put("jsonrpc", "2.0")
                              .put("id", ids++)
                              .put("method", "tools/call")
                              .put(
                                  "params",
                                  new JsonObject()
                                      .put("name", "create_folder")
                                      .put(
                                          "arguments",
                                          new JsonObject().put("folder_name", "escaped"))))
                      .build());
          assertEquals(401, call.statusCode(), what + " was served: " + call.body());
        });
    HttpResponse<String> scopeless =
        get("/api/jobs", issuer.mint(issuer.claims("mallory", RESOURCE, "openid email")));
    assertEquals(403, scopeless.statusCode());
    assertTrue(
        scopeless
            .headers()
            .firstValue("WWW-Authenticate")
            .orElse("")
            .contains("error=\"insufficient_scope\""));
    assertFalse(
        Files.exists(dataDir.resolve("workspace/mallory/escaped")),
        "a refused token made a folder");
    assertFalse(Files.exists(dataDir.resolve("workspace/mallory")), "a refused token has a folder");
  }

  static JsonObject withoutExp(JsonObject claims) {
    JsonObject copy = claims.copy();
    copy.remove("exp");
    return copy;
  }

  static String hs256(JsonObject claims, String secret) {
    String input =
        TestIssuer.encode(
                new JsonObject().put("alg", "HS256").put("typ", "JWT").put("kid", "key-1"))
            + "."
            + TestIssuer.encode(claims);
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
      return input
          + "."
          + Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
