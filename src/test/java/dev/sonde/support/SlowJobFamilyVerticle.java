package dev.sonde.support;

import dev.sonde.core.CallerException;
import dev.sonde.core.CancelledException;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
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
    private static final Arg<Integer> STEPS =
        Arg.integer("steps", "how many steps", 1, 1000).required();
    private static final Arg<Integer> STEP_MILLIS =
        Arg.integer("stepMillis", "milliseconds per step", 0, 10_000).orElse(100);
    private static final Arg<Integer> FAIL_AT =
        Arg.integer("failAt", "fail with a tool error at this step", 1, 1000);

    private static final ToolSpec SPEC =
        ToolSpec.builder("test_slow_job")
            .title("Slow test job")
            .description("Test only: a job of N steps that logs and reports progress at each step.")
            .input(STEPS, STEP_MILLIS, FAIL_AT)
            .mode(ExecutionMode.JOB)
            .tasks(TaskSupport.OPTIONAL)
            .build();

    @Override
    public ToolSpec spec() {
      return SPEC;
    }

    @Override
    public Future<ToolResult> call(ToolContext ctx) throws InterruptedException {
      int steps = ctx.arg(STEPS);
      int stepMillis = ctx.arg(STEP_MILLIS);
      Integer failAt = ctx.arg(FAIL_AT);
      for (int i = 1; i <= steps; i++) {
        if (failAt != null && i == failAt) {
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
