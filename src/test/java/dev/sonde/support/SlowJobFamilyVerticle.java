package dev.sonde.support;

import dev.sonde.core.CallerException;
import dev.sonde.core.CancelledException;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TaskSupport;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A test-only family standing in for long tools (chat BI, forecasts) until they exist. */
public final class SlowJobFamilyVerticle extends FamilyVerticle {
  public SlowJobFamilyVerticle(FamilyServices services) {
    super("testjobs", services, List.of(new SlowJobTool()));
  }

  /** Runs {@code steps} steps of {@code stepMillis} each, logging and reporting each one. */
  static final class SlowJobTool implements Tool {
    private static final ToolSpec SPEC =
        ToolSpec.builder("test_slow_job")
            .title("Slow test job")
            .description("Test only: a job of N steps that logs and reports progress at each step.")
            .input(
                Schemas.prop(
                    Schemas.prop(
                        Schemas.prop(
                            Schemas.object(),
                            "steps",
                            Schemas.integer("how many steps", 1, 1000),
                            true),
                        "stepMillis",
                        Schemas.integer("milliseconds per step", 0, 10_000),
                        false),
                    "failAt",
                    Schemas.integer("fail with a tool error at this step", 1, 1000),
                    false))
            .mode(ExecutionMode.JOB)
            .tasks(TaskSupport.OPTIONAL)
            .build();

    @Override
    public ToolSpec spec() {
      return SPEC;
    }

    @Override
    public Future<ToolResult> call(ToolContext ctx) throws InterruptedException {
      int steps = ctx.args().getInteger("steps");
      int stepMillis = ctx.args().getInteger("stepMillis", 100);
      int failAt = ctx.args().getInteger("failAt", -1);
      for (int i = 1; i <= steps; i++) {
        if (i == failAt) {
          throw new CallerException("step " + i + " failed as asked; call again without failAt");
        }
        ctx.log("debug", "debug detail of step " + i);
        ctx.log("info", "step " + i + " of " + steps);
        ctx.job()
            .step(
                "step-" + i,
                true,
                "step " + i + " of " + steps,
                i,
                (double) steps,
                new JsonObject().put("i", i));
        if (!ctx.call().sleep(stepMillis)) {
          throw new CancelledException(ctx.cancelReason());
        }
      }
      return Future.succeededFuture(ToolResult.structured(new JsonObject().put("steps", steps)));
    }
  }
}
