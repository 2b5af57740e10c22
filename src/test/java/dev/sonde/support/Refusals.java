package dev.sonde.support;

import dev.sonde.mcp.ToolRegistry;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** What the server says, before any tool runs, of arguments a tool's declaration refuses. */
public final class Refusals {
  private final ToolRegistry.RegisteredTool tool;

  public Refusals(ToolSpec spec) {
    ToolRegistry registry = new ToolRegistry();
    registry.register("test", List.of(spec));
    tool = registry.get(spec.name());
  }

  /** A tool {@code name} that takes {@code args} and nothing else. */
  public static Refusals of(String name, Arg<?>... args) {
    return new Refusals(ToolSpec.builder(name).description("d").input(args).build());
  }

  /** The refusal of {@code arguments}, or null when they pass. */
  public String of(JsonObject arguments) {
    return ToolRegistry.validate(tool, arguments);
  }
}
