package dev.sonde.config;

/** A configuration problem, worded as one line that names the key and what to change. */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message, null, false, false);
  }
}
