package dev.sonde.support;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * A small OAuth authorization server speaking the wire format a resource server reads: RFC 8414
 * metadata and a JWKS at its own address, and RS256 access tokens minted with the JDK's own
 * signature code (never the library Sonde verifies with).
 */
public final class TestIssuer implements AutoCloseable {
  private final HttpServer server;
  private final KeyPair key;
  private final String kid = "key-1";

  public TestIssuer() throws IOException, GeneralSecurityException {
    key = rsa();
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/.well-known/oauth-authorization-server",
        exchange -> {
          byte[] body =
              new JsonObject()
                  .put("issuer", issuer())
                  .put("jwks_uri", issuer() + "/jwks.json")
                  .put("token_endpoint", issuer() + "/token")
                  .encode()
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.createContext(
        "/jwks.json",
        exchange -> {
          byte[] body = jwks().encode().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  public static KeyPair rsa() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    return generator.generateKeyPair();
  }

  public String issuer() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public JsonObject jwks() {
    RSAPublicKey publicKey = (RSAPublicKey) key.getPublic();
    return new JsonObject()
        .put(
            "keys",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("kty", "RSA")
                        .put("kid", kid)
                        .put("use", "sig")
                        .put("alg", "RS256")
                        .put("n", unsigned(publicKey.getModulus()))
                        .put("e", unsigned(publicKey.getPublicExponent()))));
  }

  /** The claims most tests start from: this issuer, {@code audience}, an hour to live. */
  public JsonObject claims(String subject, String audience, String scope) {
    long now = Instant.now().getEpochSecond();
    return new JsonObject()
        .put("iss", issuer())
        .put("sub", subject)
        .put("aud", audience)
        .put("scope", scope)
        .put("iat", now)
        .put("exp", now + 3600)
        .put("jti", UUID.randomUUID().toString());
  }

  /** {@code claims} signed RS256 by this issuer's key. */
  public String mint(JsonObject claims) {
    return sign(
        new JsonObject().put("alg", "RS256").put("typ", "JWT").put("kid", kid), claims, key);
  }

  /** {@code claims} under {@code header}, signed with {@code signer}'s private key (RS256). */
  public static String sign(JsonObject header, JsonObject claims, KeyPair signer) {
    String input = encode(header) + "." + encode(claims);
    try {
      Signature rs256 = Signature.getInstance("SHA256withRSA");
      rs256.initSign(signer.getPrivate());
      rs256.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rs256.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String encode(JsonObject json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.encode().getBytes(StandardCharsets.UTF_8));
  }

  public KeyPair key() {
    return key;
  }

  private static String unsigned(BigInteger value) {
    byte[] bytes = value.toByteArray();
    int start = bytes.length > 1 && bytes[0] == 0 ? 1 : 0;
    byte[] trimmed = java.util.Arrays.copyOfRange(bytes, start, bytes.length);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(trimmed);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
