package dev.sonde.auth;

import dev.sonde.core.AccountName;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs requests in by API token: the token file's entries with their principals, read again within
 * a second of the file changing (a token created or revoked on the command line takes effect
 * without a restart). A file that cannot be read keeps the entries read before it, and says why in
 * the log.
 */
public final class BearerTokens {
  private static final Logger LOG = LoggerFactory.getLogger(BearerTokens.class);
  private static final long RELOAD_MILLIS = 1000;

  /**
   * A sign-in's outcome: the principal, or why there is none (said to the client), and whether the
   * token is good but its scopes name no toolset (a 403, not a 401).
   */
  public record Verdict(Principal principal, String refusal, boolean insufficientScope) {
    public Verdict(Principal principal, String refusal) {
      this(principal, refusal, false);
    }
  }

  /** An entry with its salt and hash decoded once, and the principal it signs in. */
  private record Live(ApiTokens.Entry entry, Principal principal, byte[] salt, byte[] sha256) {
    Live(ApiTokens.Entry entry, Principal principal) {
      this(
          entry,
          principal,
          HexFormat.of().parseHex(entry.salt()),
          HexFormat.of().parseHex(entry.sha256()));
    }

    boolean matches(String secret) {
      return MessageDigest.isEqual(sha256, ApiTokens.digest(salt, secret));
    }
  }

  private final ApiTokens tokens;
  private final Toolsets toolsets;
  private volatile Map<String, Live> byId = Map.of();
  private Object readVersion;
  private Object failedVersion;

  public BearerTokens(ApiTokens tokens, Toolsets toolsets) {
    this.tokens = tokens;
    this.toolsets = toolsets;
  }

  /** Tokens of {@code tokens}' file, read now and again whenever it changes. */
  public static BearerTokens watch(Vertx vertx, ApiTokens tokens, Toolsets toolsets)
      throws IOException {
    BearerTokens bearer = new BearerTokens(tokens, toolsets);
    bearer.reloadIfChanged();
    WorkerExecutor reader = vertx.createSharedWorkerExecutor("sonde-auth", 1);
    vertx.setPeriodic(
        RELOAD_MILLIS,
        id ->
            reader.executeBlocking(
                () -> {
                  try {
                    bearer.reloadIfChanged();
                  } catch (IOException e) {
                    // said once per change of the file, not every second
                  }
                  return null;
                },
                false));
    return bearer;
  }

  /**
   * Reads the file again if it changed since the last read. A changed file that cannot be read
   * signs no one in until it can (a revocation must never be lost to a typo or a permission), and
   * the log says why, once per change.
   */
  synchronized void reloadIfChanged() throws IOException {
    Object version;
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(tokens.file(), BasicFileAttributes.class);
      version =
          List.of(
              attributes.lastModifiedTime(),
              attributes.size(),
              Objects.toString(attributes.fileKey()));
    } catch (NoSuchFileException e) {
      version = "absent";
    }
    if (version.equals(readVersion)) {
      return;
    }
    List<ApiTokens.Entry> entries;
    try {
      entries = tokens.entries();
    } catch (IOException e) {
      byId = Map.of();
      if (!version.equals(failedVersion)) {
        failedVersion = version;
        LOG.error(
            "{} cannot be read ({}); every API token is refused until it can",
            tokens.file(),
            e instanceof AccessDeniedException
                ? "permission denied: is it owned by the user Sonde runs as?"
                : e.getMessage());
      }
      throw e;
    }
    Map<String, Live> live = new HashMap<>();
    for (ApiTokens.Entry entry : entries) {
      if (!AccountName.isValid(entry.account())) {
        LOG.warn("token {} signs nothing in: its account is not a plain name", entry.id());
        continue;
      }
      try {
        live.put(
            entry.id(),
            new Live(
                entry,
                Principal.ofApiToken(
                    entry.account(),
                    toolsets.grant(entry.toolsets()),
                    entry.id(),
                    entry.expires())));
      } catch (IllegalArgumentException e) {
        LOG.warn(
            "token {} of {} signs nothing in: {}", entry.id(), entry.account(), e.getMessage());
      }
    }
    byId = Map.copyOf(live);
    readVersion = version;
    failedVersion = null;
  }

  /** Whether the token {@code id} is still in force (neither revoked nor expired). */
  public boolean live(String id) {
    Live live = byId.get(id);
    return live != null && live.entry().liveAt(Instant.now());
  }

  /** Who {@code token} signs in at {@code now}, or why it signs no one in. */
  public Verdict verify(String token, Instant now) {
    String[] parts = ApiTokens.parts(token);
    if (parts == null) {
      return new Verdict(null, "the bearer token is not a Sonde API token");
    }
    Live live = byId.get(parts[0]);
    if (live == null || !live.matches(parts[1]) || live.entry().revoked() != null) {
      return new Verdict(null, "the API token is unknown or revoked");
    }
    if (!live.entry().liveAt(now)) {
      return new Verdict(null, "the API token expired at " + live.entry().expires());
    }
    return new Verdict(live.principal(), null);
  }
}
