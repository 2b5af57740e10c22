package dev.sonde.conformance;

import dev.sonde.tools.ClientInput;
import dev.sonde.tools.PromptProvider;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** The fixture prompts of the conformance suite. */
public final class ConformancePrompts implements PromptProvider {
  private static final List<String> ARG1_VALUES =
      List.of("paris", "park", "party", "test", "testing");

  @Override
  public List<JsonObject> prompts() {
    return List.of(
        prompt("test_simple_prompt", "A prompt without arguments", new JsonArray()),
        prompt(
            "test_prompt_with_arguments",
            "A prompt with two arguments",
            new JsonArray()
                .add(arg("arg1", "First test argument"))
                .add(arg("arg2", "Second test argument"))),
        prompt(
            "test_prompt_with_embedded_resource",
            "A prompt embedding a resource",
            new JsonArray().add(arg("resourceUri", "URI of the resource to embed"))),
        prompt("test_prompt_with_image", "A prompt with an image", new JsonArray()),
        prompt(
            "test_input_required_result_prompt",
            "A prompt that asks the user for context before it is written",
            new JsonArray()));
  }

  @Override
  public Future<JsonObject> get(String name, JsonObject args, JsonObject inputResponses) {
    if (!"test_input_required_result_prompt".equals(name)) {
      return get(name, args);
    }
    JsonObject context = ClientInput.accepted(inputResponses, "user_context");
    return Future.succeededFuture(
        context == null
            ? InputFixtures.askContext()
            : new JsonObject()
                .put(
                    "messages",
                    new JsonArray()
                        .add(user(text("Use this context: " + context.getValue("context"))))));
  }

  @Override
  public Future<JsonObject> get(String name, JsonObject args) {
    JsonArray messages = new JsonArray();
    switch (name) {
      case "test_simple_prompt" -> messages.add(user(text("This is a simple prompt for testing.")));
      case "test_prompt_with_arguments" ->
          messages.add(
              user(
                  text(
                      "Prompt with arguments: arg1='"
                          + args.getString("arg1", "")
                          + "', arg2='"
                          + args.getString("arg2", "")
                          + "'")));
      case "test_prompt_with_embedded_resource" ->
          messages
              .add(
                  user(
                      new JsonObject()
                          .put("type", "resource")
                          .put(
                              "resource",
                              new JsonObject()
                                  .put(
                                      "uri",
                                      args.getString("resourceUri", "test://example-resource"))
                                  .put("mimeType", "text/plain")
                                  .put("text", "Embedded resource content for testing."))))
              .add(user(text("Please process the embedded resource above.")));
      case "test_prompt_with_image" ->
          messages
              .add(
                  user(
                      new JsonObject()
                          .put("type", "image")
                          .put("data", Media.RED_PIXEL_PNG)
                          .put("mimeType", "image/png")))
              .add(user(text("Please analyze the image above.")));
      default -> {
        return null;
      }
    }
    return Future.succeededFuture(new JsonObject().put("messages", messages));
  }

  @Override
  public Future<List<String>> complete(
      String prompt, String argument, String prefix, JsonObject resolved, String account) {
    if (!"test_prompt_with_arguments".equals(prompt) || !"arg1".equals(argument)) {
      return Future.succeededFuture(List.of());
    }
    return Future.succeededFuture(ARG1_VALUES.stream().filter(v -> v.startsWith(prefix)).toList());
  }

  private static JsonObject prompt(String name, String description, JsonArray arguments) {
    return new JsonObject()
        .put("name", name)
        .put("description", description)
        .put("arguments", arguments);
  }

  private static JsonObject arg(String name, String description) {
    return new JsonObject().put("name", name).put("description", description).put("required", true);
  }

  private static JsonObject user(JsonObject content) {
    return PromptProvider.userMessage(content);
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("type", "text").put("text", text);
  }
}
