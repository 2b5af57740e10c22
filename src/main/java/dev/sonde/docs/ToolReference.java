package dev.sonde.docs;

import dev.sonde.tools.ToolSpec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;

/** The manual's tool reference, written from the tool specs the server lists, so they agree. */
public final class ToolReference {
  private ToolReference() {}

  public static String markdown(List<ToolSpec> specs) {
    StringBuilder md =
        new StringBuilder(
            "---\ntitle: Tool reference\n---\n\n# Tool reference\n\n"
                + "Every tool this Sonde lists in `tools/list`, with its arguments. Generated from"
                + " the tool specs at start, so it matches the running server.\n");
    specs.stream()
        .sorted(Comparator.comparing(ToolSpec::name))
        .forEach(
            spec -> {
              md.append("\n## ").append(spec.name()).append("\n\n");
              if (spec.title() != null) {
                md.append("**").append(spec.title()).append("**. ");
              }
              md.append(spec.description()).append("\n");
              JsonObject properties =
                  spec.inputSchema().getJsonObject("properties", new JsonObject());
              if (properties.isEmpty()) {
                md.append("\nNo arguments.\n");
                return;
              }
              JsonArray required = spec.inputSchema().getJsonArray("required", new JsonArray());
              md.append("\n| argument | type | required | description |\n|---|---|---|---|\n");
              properties.forEach(
                  e -> {
                    JsonObject p = (JsonObject) e.getValue();
                    md.append("| `")
                        .append(e.getKey())
                        .append("` | ")
                        .append(type(p))
                        .append(" | ")
                        .append(required.contains(e.getKey()) ? "yes" : "no")
                        .append(" | ")
                        .append(
                            p.getString("description", "").replace("|", "\\|").replace("\n", " "))
                        .append(" |\n");
                  });
            });
    return md.toString();
  }

  private static String type(JsonObject property) {
    Object type = property.getValue("type");
    String name = type == null ? "any" : type.toString();
    if (property.containsKey("enum")) {
      name +=
          " ("
              + String.join(
                  ", ", property.getJsonArray("enum").stream().map(String::valueOf).toList())
              + ")";
    }
    if (property.containsKey("minimum") || property.containsKey("maximum")) {
      name += " " + property.getValue("minimum", "") + "–" + property.getValue("maximum", "");
    }
    return name;
  }
}
