package dev.sonde.auth;

import dev.sonde.core.AccountName;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * API tokens in one JSON file: each is opaque ({@code sonde_<id>_<secret>}), shown once when
 * created, and kept only as its id, account, toolsets, dates and a salted SHA-256 of the secret.
 * The secret is 256 random bits, so a slow password hash would add no strength, only a cost to
 * every request. The file is replaced whole (a temporary file moved over it) under a lock, so a
 * reader never sees half of it and two writers never lose each other's change.
 */
public final class ApiTokens {
  public static final String PREFIX = "sonde_";
  private static final int ID_CHARS = 16;
  private static final int SECRET_CHARS = 43;
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException(e);
            }
          });
  private static final SecureRandom RANDOM = new SecureRandom();

  /** One token as stored: never the secret itself. */
  public record Entry(
      String id,
      String account,
      List<String> toolsets,
      String salt,
      String sha256,
      Instant created,
      Instant expires,
      Instant revoked) {
    public Entry {
      toolsets = List.copyOf(toolsets);
    }

    JsonObject toJson() {
      JsonObject json =
          new JsonObject()
              .put("id", id)
              .put("account", account)
              .put("toolsets", new JsonArray(toolsets))
              .put("salt", salt)
              .put("sha256", sha256)
              .put("created", created.toString());
      if (expires != null) {
        json.put("expires", expires.toString());
      }
      if (revoked != null) {
        json.put("revoked", revoked.toString());
      }
      return json;
    }

    static Entry fromJson(JsonObject json) {
      HexFormat.of().parseHex(json.getString("salt"));
      HexFormat.of().parseHex(json.getString("sha256"));
      List<String> toolsets = new ArrayList<>();
      json.getJsonArray("toolsets", new JsonArray()).forEach(t -> toolsets.add((String) t));
      return new Entry(
          json.getString("id"),
          json.getString("account"),
          toolsets,
          json.getString("salt"),
          json.getString("sha256"),
          Instant.parse(json.getString("created")),
          instant(json.getString("expires")),
          instant(json.getString("revoked")));
    }

    private static Instant instant(String text) {
      return text == null ? null : Instant.parse(text);
    }

    /** Whether it may sign a request in at {@code now}. */
    public boolean liveAt(Instant now) {
      return revoked == null && (expires == null || now.isBefore(expires));
    }
  }

  /** A token just made: the only time its text exists outside the caller's hands. */
  public record Created(String token, Entry entry) {}

  private final Path file;

  public ApiTokens(Path file) {
    this.file = file;
  }

  public Path file() {
    return file;
  }

  /** The tokens in the file, revoked and expired ones too; none when there is no file yet. */
  public List<Entry> entries() throws IOException {
    return read(file);
  }

  /** The tokens of {@code file}; a file that is not a token file is an error. */
  static List<Entry> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      JsonObject stored = new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
      List<Entry> entries = new ArrayList<>();
      stored
          .getJsonArray("tokens", new JsonArray())
          .forEach(t -> entries.add(Entry.fromJson((JsonObject) t)));
      return List.copyOf(entries);
    } catch (DecodeException
        | ClassCastException
        | NullPointerException
        | IllegalArgumentException
        | DateTimeException e) {
      throw new IOException(file.getFileName() + " is not a Sonde token file: " + e.getMessage());
    }
  }

  /**
   * A new token for {@code account} with {@code toolsets} (names already checked by the caller),
   * expiring at {@code expires} or never (null).
   */
  public Created create(String account, List<String> toolsets, Instant expires) throws IOException {
    if (!AccountName.isValid(account)) {
      throw new IllegalArgumentException(
          "account '"
              + account
              + "' must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or"
              + " digit (it names the account's workspace folder)");
    }
    if (toolsets.isEmpty()) {
      throw new IllegalArgumentException("a token needs at least one toolset (--toolsets)");
    }
    byte[] secretBytes = new byte[32];
    RANDOM.nextBytes(secretBytes);
    String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(secretBytes);
    byte[] idBytes = new byte[8];
    RANDOM.nextBytes(idBytes);
    String id = HexFormat.of().formatHex(idBytes);
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    Entry entry =
        new Entry(
            id,
            account,
            toolsets,
            HexFormat.of().formatHex(salt),
            HexFormat.of().formatHex(digest(salt, secret)),
            Instant.now(),
            expires,
            null);
    update(
        tokens -> {
          tokens.put(id, entry);
          return true;
        });
    return new Created(PREFIX + id + "_" + secret, entry);
  }

  /** Revokes the token {@code id}; false when the file has no such token. */
  public boolean revoke(String id) throws IOException {
    Instant now = Instant.now();
    return update(
        tokens -> {
          Entry entry = tokens.get(id);
          if (entry == null) {
            return false;
          }
          if (entry.revoked() == null) {
            tokens.put(
                id,
                new Entry(
                    entry.id(),
                    entry.account(),
                    entry.toolsets(),
                    entry.salt(),
                    entry.sha256(),
                    entry.created(),
                    entry.expires(),
                    now));
          }
          return true;
        });
  }

  /** The id and secret of a token's text, or null when it is not shaped like a Sonde token. */
  static String[] parts(String token) {
    // by hand, not a regular expression: every request of a signed-in client passes here
    int idEnd = PREFIX.length() + ID_CHARS;
    if (token.length() != idEnd + 1 + SECRET_CHARS
        || !token.startsWith(PREFIX)
        || token.charAt(idEnd) != '_') {
      return null;
    }
    for (int i = PREFIX.length(); i < idEnd; i++) {
      char c = token.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return null;
      }
    }
    for (int i = idEnd + 1; i < token.length(); i++) {
      char c = token.charAt(i);
      if (!(c >= 'A' && c <= 'Z'
          || c >= 'a' && c <= 'z'
          || c >= '0' && c <= '9'
          || c == '-'
          || c == '_')) {
        return null;
      }
    }
    return new String[] {token.substring(PREFIX.length(), idEnd), token.substring(idEnd + 1)};
  }

  private interface Change {
    boolean apply(Map<String, Entry> tokens);
  }

  /**
   * Reads, changes and replaces the file under an exclusive lock beside it; a file lock is held by
   * the process, so writers in this one take turns on the class first.
   */
  private boolean update(Change change) throws IOException {
    synchronized (ApiTokens.class) {
      return lockedUpdate(change);
    }
  }

  private boolean lockedUpdate(Change change) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path lock = dir.resolve(file.getFileName() + ".lock");
    try (FileChannel channel =
            FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = channel.lock()) {
      Map<String, Entry> tokens = new LinkedHashMap<>();
      read(file).forEach(e -> tokens.put(e.id(), e));
      if (!change.apply(tokens)) {
        return false;
      }
      Path temporary = dir.resolve(file.getFileName() + ".tmp");
      Files.deleteIfExists(temporary);
      try {
        Files.createFile(
            temporary,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (UnsupportedOperationException | FileAlreadyExistsException e) {
        Files.deleteIfExists(temporary);
        Files.createFile(temporary);
      }
      JsonArray stored = new JsonArray();
      tokens.values().forEach(e -> stored.add(e.toJson()));
      Files.write(
          temporary,
          new JsonObject().put("tokens", stored).encodePrettily().getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.SYNC);
      keepOwner(temporary);
      try {
        Files.move(
            temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
      return true;
    }
  }

  /**
   * Gives the new file the old one's owner, so a command run as root does not leave the file
   * unreadable to the user Sonde runs as; where that is not permitted the owner stays the writer.
   */
  private void keepOwner(Path temporary) {
    try {
      if (Files.exists(file)) {
        Files.setOwner(temporary, Files.getOwner(file));
      }
    } catch (IOException | UnsupportedOperationException e) {
      // not permitted: a Sonde that cannot read the new file refuses every token and says why
    }
  }

  /** SHA-256 of {@code salt} then {@code secret}. */
  static byte[] digest(byte[] salt, String secret) {
    MessageDigest sha = SHA256.get();
    sha.reset();
    sha.update(salt);
    return sha.digest(secret.getBytes(StandardCharsets.US_ASCII));
  }
}
