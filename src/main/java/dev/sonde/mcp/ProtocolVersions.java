package dev.sonde.mcp;

import java.util.List;

/**
 * The MCP revisions Sonde speaks, newest first: the modern (stateless) revision, served per request
 * from its {@code _meta}, and the legacy ones, negotiated by {@code initialize} for a session.
 */
public final class ProtocolVersions {
  /** The stateless revision: no handshake, every request carries its version. */
  public static final String MODERN = "2026-07-28";

  public static final List<String> MODERN_SUPPORTED = List.of(MODERN);

  public static final String LATEST = "2025-11-25";
  public static final List<String> SUPPORTED = List.of(LATEST, "2025-06-18", "2025-03-26");

  /** What a Streamable HTTP request without {@code MCP-Protocol-Version} is taken to speak. */
  public static final String ASSUMED_WITHOUT_HEADER = "2025-03-26";

  private ProtocolVersions() {}

  /** The client's version when supported, else the newest. */
  public static String negotiate(String requested) {
    return SUPPORTED.contains(requested) ? requested : LATEST;
  }

  /** A legacy revision, negotiated by {@code initialize}. */
  public static boolean isSupported(String version) {
    // List.of(...).contains(null) throws: a missing header is simply not a version
    return version != null && SUPPORTED.contains(version);
  }

  public static boolean isModern(String version) {
    return version != null && MODERN_SUPPORTED.contains(version);
  }
}
