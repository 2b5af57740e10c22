package dev.sonde.mcp;

import java.util.List;

/** The MCP revisions Sonde speaks, newest first. */
public final class ProtocolVersions {
  public static final String LATEST = "2025-11-25";
  public static final List<String> SUPPORTED = List.of(LATEST, "2025-06-18", "2025-03-26");

  /** What a Streamable HTTP request without {@code MCP-Protocol-Version} is taken to speak. */
  public static final String ASSUMED_WITHOUT_HEADER = "2025-03-26";

  private ProtocolVersions() {}

  /** The client's version when supported, else the newest. */
  public static String negotiate(String requested) {
    return SUPPORTED.contains(requested) ? requested : LATEST;
  }

  public static boolean isSupported(String version) {
    return SUPPORTED.contains(version);
  }
}
