package dev.sonde.system;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.time.Instant;
import java.util.List;

/** Sonde about itself: versions, health, and what the protocol engine is doing. */
public final class SystemFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "system";

  public SystemFamilyVerticle(FamilyServices services, Instant startedAt) {
    super(
        FAMILY,
        services,
        List.of(
            new GetVersionTool(),
            new HealthCheckTool(services.databases(), startedAt),
            new DebugMcpStatusTool(services.jobs(), startedAt)));
  }
}
