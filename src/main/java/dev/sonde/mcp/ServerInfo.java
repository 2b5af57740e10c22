package dev.sonde.mcp;

/** Who this server is, for {@code initialize}, and the guide it gives agents. */
public record ServerInfo(String name, String title, String version, String instructions) {}
