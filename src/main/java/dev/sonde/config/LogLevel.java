package dev.sonde.config;

import java.util.List;

/** The MCP (syslog) log levels, least severe first. */
public final class LogLevel {
  public static final List<String> NAMES =
      List.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

  private LogLevel() {}

  public static boolean isKnown(String level) {
    return NAMES.contains(level);
  }

  /** Severity rank; unknown levels rank lowest. */
  public static int rank(String level) {
    return NAMES.indexOf(level);
  }
}
