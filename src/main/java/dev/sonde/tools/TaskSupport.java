package dev.sonde.tools;

/** Whether a client may run the tool as an MCP task ({@code execution.taskSupport}). */
public enum TaskSupport {
  FORBIDDEN,
  OPTIONAL,
  REQUIRED;

  public String wireName() {
    return name().toLowerCase();
  }
}
