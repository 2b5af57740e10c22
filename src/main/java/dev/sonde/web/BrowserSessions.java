package dev.sonde.web;

import dev.sonde.auth.Principal;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The job view's and the dashboard viewer's sign-ins: a token exchanged once on the sign-in page
 * for a random session id, carried by an HttpOnly, SameSite=Strict cookie so page script never
 * holds the token, with a CSRF value the page must echo on every request that changes something. A
 * session lasts {@link #LIFETIME_MILLIS} at most, and no longer than its token.
 */
final class BrowserSessions {
  static final String COOKIE = "sonde_session";
  static final long LIFETIME_MILLIS = 12L * 3600 * 1000;
  private static final int MAX_SESSIONS = 10_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * A signed-in browser: who, until when, and the value its page echoes in {@code X-Sonde-CSRF}.
   */
  record Signed(Principal principal, long expiresAt, String csrf) {}

  private final Map<String, Signed> byId = new ConcurrentHashMap<>();

  /** A new session of {@code principal}; its id goes into the cookie. */
  String open(Principal principal, long now) {
    if (byId.size() >= MAX_SESSIONS) {
      byId.values().removeIf(s -> s.expiresAt() <= now);
    }
    // still full: the sign-in that ends soonest makes room, never an unbounded map
    while (byId.size() >= MAX_SESSIONS) {
      byId.entrySet().stream()
          .min(Comparator.comparingLong(e -> e.getValue().expiresAt()))
          .ifPresent(e -> byId.remove(e.getKey(), e.getValue()));
    }
    String id = random();
    byId.put(id, new Signed(principal, now + LIFETIME_MILLIS, random()));
    return id;
  }

  /** The live session of {@code id}, or null. */
  Signed get(String id, long now) {
    Signed signed = id == null ? null : byId.get(id);
    if (signed != null && signed.expiresAt() <= now) {
      byId.remove(id);
      return null;
    }
    return signed;
  }

  void close(String id) {
    byId.remove(id);
  }

  private static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
