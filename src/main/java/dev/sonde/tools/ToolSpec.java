package dev.sonde.tools;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything a client learns about a tool from {@code tools/list}, plus how Sonde runs it. The
 * listing is built from these objects, so the listing and the behaviour cannot drift. A tool
 * declared with {@link Arg}s gets its input schema from them, and reads only those.
 */
public record ToolSpec(
    String name,
    String title,
    String description,
    JsonObject inputSchema,
    List<Arg<?>> arguments,
    JsonObject outputSchema,
    ToolAnnotations annotations,
    ExecutionMode mode,
    TaskSupport taskSupport,
    Duration timeout,
    boolean listed,
    JsonObject requiredCapabilities,
    boolean inputBeforeTask) {

  public ToolSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(inputSchema, "inputSchema");
    requiredCapabilities =
        requiredCapabilities == null ? new JsonObject() : requiredCapabilities.copy();
    inputSchema = Schemas.bounded(inputSchema);
    if (!name.matches("[a-z][a-z0-9_]*")) {
      throw new IllegalArgumentException("tool names are snake_case: " + name);
    }
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The {@code tools/list} entry. */
  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("name", name)
            .put("description", description)
            .put("inputSchema", inputSchema);
    if (title != null) {
      json.put("title", title);
    }
    if (outputSchema != null) {
      json.put("outputSchema", outputSchema);
    }
    if (annotations != null) {
      json.put("annotations", annotations.toJson(title));
    }
    json.put("execution", new JsonObject().put("taskSupport", taskSupport.wireName()));
    return json;
  }

  /** Fluent construction with Sonde's defaults: no arguments, event loop, tasks forbidden. */
  public static final class Builder {
    private final String name;
    private String title;
    private String description;
    private boolean listed = true;
    private final JsonObject requiredCapabilities = new JsonObject();
    private boolean inputBeforeTask;
    private JsonObject inputSchema = Schemas.object();
    private List<Arg<?>> arguments = List.of();
    private JsonObject outputSchema;
    private ToolAnnotations annotations;
    private ExecutionMode mode = ExecutionMode.EVENT_LOOP;
    private TaskSupport taskSupport = TaskSupport.FORBIDDEN;
    private Duration timeout;

    private Builder(String name) {
      this.name = name;
    }

    public Builder title(String value) {
      title = value;
      return this;
    }

    public Builder description(String value) {
      description = value;
      return this;
    }

    /** The tool's arguments, in the order clients see them; the input schema is made of them. */
    public Builder input(Arg<?>... args) {
      arguments = List.of(args);
      inputSchema = Arg.objectJson(arguments);
      return this;
    }

    /**
     * An input schema written whole, with keywords Args do not make ({@code $schema}, {@code
     * $defs}): the conformance fixture that checks they reach clients untouched, and the open input
     * of an unlisted {@link Operation}. Such a tool reads {@link ToolContext#args()}.
     */
    public Builder input(JsonObject schema) {
      inputSchema = schema;
      arguments = List.of();
      return this;
    }

    public Builder output(JsonObject schema) {
      outputSchema = schema;
      return this;
    }

    public Builder annotations(ToolAnnotations value) {
      annotations = value;
      return this;
    }

    public Builder mode(ExecutionMode value) {
      mode = value;
      return this;
    }

    public Builder tasks(TaskSupport value) {
      taskSupport = value;
      return this;
    }

    public Builder timeout(Duration value) {
      timeout = value;
      return this;
    }

    /**
     * An operation that other parts of Sonde ask over the event bus (the dashboard viewer): run
     * like a tool, never listed to or callable by MCP clients.
     */
    public Builder unlisted() {
      listed = false;
      return this;
    }

    /**
     * A client capability (for example {@code sampling}) without which the tool cannot run: a
     * modern client that does not declare it is answered -32021 before the tool starts.
     */
    public Builder requires(String capability) {
      requiredCapabilities.put(capability, new JsonObject());
      return this;
    }

    /**
     * A task tool that asks the client for its input before the work starts: that exchange is
     * answered directly (input-required), and only the call that brings the answers becomes a task.
     */
    public Builder inputBeforeTask() {
      inputBeforeTask = true;
      return this;
    }

    public ToolSpec build() {
      return new ToolSpec(
          name,
          title,
          description,
          inputSchema,
          arguments,
          outputSchema,
          annotations,
          mode,
          taskSupport,
          timeout,
          listed,
          requiredCapabilities,
          inputBeforeTask);
    }
  }
}
