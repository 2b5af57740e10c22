package dev.sonde.system;

import dev.sonde.tools.Schemas;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Versions of Sonde, Java, Vert.x and the embedded database engines. */
final class GetVersionTool implements Tool {
  private static final ToolResult VERSIONS =
      ToolResult.structured(
          new JsonObject()
              .put("sonde", ProcessFacts.SONDE)
              .put("java", System.getProperty("java.version"))
              .put("javaVendor", System.getProperty("java.vendor"))
              .put("vertx", ProcessFacts.VERTX)
              .put("engines", ProcessFacts.ENGINES));

  private static final ToolSpec SPEC =
      ToolSpec.builder("get_version")
          .title("Versions")
          .description(
              "Versions of Sonde, the Java runtime, Vert.x and the embedded database engines. Cheap;"
                  + " use it to check the server answers.")
          .output(
              Schemas.prop(
                  Schemas.prop(
                      Schemas.prop(
                          Schemas.prop(
                              Schemas.result(), "sonde", Schemas.string("Sonde version"), true),
                          "java",
                          Schemas.string("Java runtime version"),
                          true),
                      "vertx",
                      Schemas.string("Vert.x version"),
                      true),
                  "engines",
                  new JsonObject()
                      .put("type", "object")
                      .put("description", "embedded engine versions by name"),
                  true))
          .annotations(ToolAnnotations.READ_ONLY)
          .build();

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    return Future.succeededFuture(VERSIONS);
  }
}
