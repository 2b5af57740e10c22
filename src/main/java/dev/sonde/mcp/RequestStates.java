package dev.sonde.mcp;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code requestState} of a multi-round-trip request, sealed so the client can only hand it
 * back: an HMAC-SHA256 over what the tool kept, the tool's name, the account and when it was
 * issued. A state that was altered, names another tool or account, or is older than its lifetime is
 * refused, so a client can neither forge a tool's memory nor replay it elsewhere.
 */
final class RequestStates {
  private static final String ALGORITHM = "HmacSHA256";
  private static final Base64.Encoder ENCODE = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODE = Base64.getUrlDecoder();

  private final SecretKeySpec key;
  private final long lifetimeMillis;

  /** {@code secret} empty: a random key, so states stay valid on this process only. */
  RequestStates(String secret, long lifetimeMillis) {
    byte[] bytes = new byte[32];
    if (secret == null || secret.isEmpty()) {
      new SecureRandom().nextBytes(bytes);
    } else {
      bytes = secret.getBytes(StandardCharsets.UTF_8);
    }
    this.key = new SecretKeySpec(bytes, ALGORITHM);
    this.lifetimeMillis = lifetimeMillis;
  }

  /** Seals what a tool wants back on the retry. */
  String seal(String tool, JsonObject arguments, String account, JsonObject state) {
    String payload =
        ENCODE.encodeToString(
            new JsonObject()
                .put("tool", tool)
                .put("arguments", digest(arguments))
                .put("account", account)
                .put("issued", System.currentTimeMillis())
                .put("state", state)
                .encode()
                .getBytes(StandardCharsets.UTF_8));
    return payload + "." + ENCODE.encodeToString(mac(payload));
  }

  /** What the tool kept, when {@code sealed} is intact, its own and fresh; else -32602. */
  JsonObject open(String sealed, String tool, JsonObject arguments, String account) {
    int dot = sealed.indexOf('.');
    if (dot > 0) {
      String payload = sealed.substring(0, dot);
      try {
        byte[] given = DECODE.decode(sealed.substring(dot + 1));
        if (MessageDigest.isEqual(given, mac(payload))) {
          JsonObject opened =
              new JsonObject(new String(DECODE.decode(payload), StandardCharsets.UTF_8));
          boolean fresh =
              System.currentTimeMillis() - opened.getLong("issued", 0L) <= lifetimeMillis;
          if (fresh
              && tool.equals(opened.getString("tool"))
              && digest(arguments).equals(opened.getString("arguments"))
              && account.equals(opened.getString("account"))) {
            return opened.getJsonObject("state", new JsonObject());
          }
        }
      } catch (IllegalArgumentException | DecodeException | ClassCastException e) {
        // falls through to the refusal: a broken state is as good as a forged one
      }
    }
    throw new McpException(
        JsonRpc.INVALID_PARAMS,
        "requestState was altered, belongs to another request or has expired; call again"
            + " without requestState and inputResponses to start over");
  }

  /** The arguments' fingerprint: their encoding's SHA-256, so the state stays small. */
  private static String digest(JsonObject arguments) {
    try {
      return ENCODE.encodeToString(
          MessageDigest.getInstance("SHA-256")
              .digest(arguments.encode().getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  private byte[] mac(String payload) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
    }
  }
}
