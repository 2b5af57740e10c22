package dev.sonde.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.config.ConfigLoader;
import dev.sonde.config.SondeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The token file and the command line: a token is shown once and the file holds only its hash;
 * revoked, expired, altered and foreign tokens sign no one in; writers never lose each other's
 * tokens and never leave a half-written file.
 */
class ApiTokensTest {
  private static final Toolsets TOOLSETS = new Toolsets(Map.of(), Set.of());

  private static Path tokenFile() throws IOException {
    return Files.createTempDirectory("sonde-tokens-").resolve("tokens.json");
  }

  @Test
  void aTokenSignsItsAccountInWithItsToolsetsAndTheFileHoldsNoSecret() throws IOException {
    ApiTokens tokens = new ApiTokens(tokenFile());
    ApiTokens.Created alice = tokens.create("alice", List.of("data-query"), null);
    assertTrue(alice.token().startsWith("sonde_" + alice.entry().id() + "_"), alice.token());
    String stored = Files.readString(tokens.file());
    String secret = ApiTokens.parts(alice.token())[1];
    assertFalse(stored.contains(secret), "the file holds a hash, never the secret");
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(tokens.file())),
        "only the owner reads the token file");

    BearerTokens bearer = new BearerTokens(tokens, TOOLSETS);
    bearer.reloadIfChanged();
    Principal principal = bearer.verify(alice.token(), Instant.now()).principal();
    assertNotNull(principal);
    assertEquals("alice", principal.account());
    assertEquals(alice.entry().id(), principal.tokenId());
    assertTrue(principal.grant().allows("execute_query"));
    assertFalse(principal.grant().allows("create_folder"));
  }

  @Test
  void alteredForeignRevokedAndExpiredTokensSignNoOneIn() throws IOException {
    ApiTokens tokens = new ApiTokens(tokenFile());
    ApiTokens.Created alice = tokens.create("alice", List.of("general"), null);
    ApiTokens.Created old = tokens.create("bob", List.of("general"), Instant.now().minusSeconds(1));
    BearerTokens bearer = new BearerTokens(tokens, TOOLSETS);
    bearer.reloadIfChanged();
    String token = alice.token();
    char last = token.charAt(token.length() - 1);
    String altered = token.substring(0, token.length() - 1) + (last == 'A' ? 'B' : 'A');
    assertNull(bearer.verify(altered, Instant.now()).principal(), "one character changed");
    assertNull(bearer.verify("ghp_" + token, Instant.now()).principal(), "not a Sonde token");
    assertNull(
        bearer
            .verify(old.token().replace(old.entry().id(), alice.entry().id()), Instant.now())
            .principal(),
        "another token's secret under this id");
    assertTrue(
        bearer.verify(old.token(), Instant.now()).refusal().contains("expired"),
        "an expired token says so");

    assertTrue(tokens.revoke(alice.entry().id()));
    assertFalse(tokens.revoke("0000000000000000"), "no such token");
    bearer.reloadIfChanged();
    assertNull(bearer.verify(token, Instant.now()).principal(), "revoked");
    assertFalse(bearer.live(alice.entry().id()));
  }

  @Test
  void aTokenWithAToolsetTheConfigurationNoLongerDefinesSignsNoOneIn() throws IOException {
    ApiTokens tokens = new ApiTokens(tokenFile());
    ApiTokens.Created gone = tokens.create("carol", List.of("analysts"), null);
    BearerTokens bearer = new BearerTokens(tokens, TOOLSETS);
    bearer.reloadIfChanged();
    assertNull(bearer.verify(gone.token(), Instant.now()).principal());
  }

  @Test
  void aHandEditedAccountThatIsAPathSignsNoOneIn() throws IOException {
    ApiTokens tokens = new ApiTokens(tokenFile());
    ApiTokens.Created made = tokens.create("alice", List.of("report"), null);
    Files.writeString(
        tokens.file(), Files.readString(tokens.file()).replace("\"alice\"", "\"../bob\""));
    BearerTokens bearer = new BearerTokens(tokens, TOOLSETS);
    bearer.reloadIfChanged();
    assertNull(bearer.verify(made.token(), Instant.now()).principal());
  }

  @Test
  void concurrentWritersKeepEveryToken() throws Exception {
    ApiTokens tokens = new ApiTokens(tokenFile());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<ApiTokens.Created>> made = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String account = "user" + i;
        made.add(pool.submit(() -> tokens.create(account, List.of("report"), null)));
      }
      for (Future<ApiTokens.Created> f : made) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(40, tokens.entries().size(), "no writer lost another's token");
  }

  @Test
  void aChangedFileThatCannotBeReadRefusesEveryTokenUntilItCan() throws IOException {
    ApiTokens tokens = new ApiTokens(tokenFile());
    ApiTokens.Created alice = tokens.create("alice", List.of("report"), null);
    BearerTokens bearer = new BearerTokens(tokens, TOOLSETS);
    bearer.reloadIfChanged();
    Files.writeString(tokens.file(), "{\"tokens\": [ {\"id\": 3");
    IOException refused = assertThrows(IOException.class, bearer::reloadIfChanged);
    assertTrue(refused.getMessage().contains("not a Sonde token file"), refused.getMessage());
    assertNull(
        bearer.verify(alice.token(), Instant.now()).principal(),
        "a revocation must never be lost to an unreadable file");
    assertThrows(IOException.class, () -> tokens.create("bob", List.of("report"), null));
    Files.delete(tokens.file());
    ApiTokens.Created again = tokens.create("alice", List.of("report"), null);
    bearer.reloadIfChanged();
    assertNotNull(bearer.verify(again.token(), Instant.now()).principal(), "readable again");
  }

  @Test
  void theCommandLinePrintsTheTokenAloneOnStdoutAndChecksWhatItIsGiven() throws IOException {
    Path file = tokenFile();
    SondeConfig config =
        ConfigLoader.load(null, Map.of(), Map.of("auth.tokensFile", file.toString()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        TokenCommand.run(
            List.of("create", "--account", "alice", "--toolsets", "data-query,report"),
            config,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    String token = out.toString(StandardCharsets.UTF_8).trim();
    assertNotNull(ApiTokens.parts(token), "stdout holds the token and nothing else: " + token);
    assertFalse(err.toString(StandardCharsets.UTF_8).contains(token), "stderr never shows it");

    for (List<String> bad :
        List.of(
            List.of("create", "--account", "alice", "--toolsets", "everything"),
            List.of("create", "--account", "../etc", "--toolsets", "report"),
            List.of("create", "--account", "alice"),
            List.of("create", "--account", "a", "--toolsets", "report", "--expires-days", "0"),
            List.of("rotate"))) {
      ByteArrayOutputStream said = new ByteArrayOutputStream();
      int refused =
          TokenCommand.run(
              bad,
              config,
              new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
              new PrintStream(said, true, StandardCharsets.UTF_8));
      assertEquals(2, refused, bad.toString());
      assertTrue(said.toString(StandardCharsets.UTF_8).contains("usage:"), bad.toString());
    }
    assertEquals(1, new ApiTokens(file).entries().size(), "refused commands wrote nothing");

    ByteArrayOutputStream listing = new ByteArrayOutputStream();
    TokenCommand.run(
        List.of("list"),
        config,
        new PrintStream(listing, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    String listed = listing.toString(StandardCharsets.UTF_8);
    assertTrue(listed.contains("alice") && listed.contains("live"), listed);
    assertFalse(listed.contains(ApiTokens.parts(token)[1]), listed);
  }
}
