package dev.sonde.tools;

import dev.sonde.config.SondeConfig;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.jobs.JobRegistry;
import dev.sonde.workspace.Workspaces;

/**
 * What every family is given at construction: configuration, the node's jobs, its databases, the
 * accounts' workspaces, and the way to ask other families. A family hands each tool only the parts
 * it uses.
 */
public record FamilyServices(
    SondeConfig config,
    JobRegistry jobs,
    DatabaseRegistry databases,
    Workspaces workspaces,
    FamilyAsks asks) {

  /** The zone times are shown in when a call names none ({@code timeseries.timezone}). */
  public String configuredZone() {
    return config.timeseries().timezone();
  }

  /** The workspace files tools save, with the links this server shows them at. */
  public WorkspaceFiles files() {
    return new WorkspaceFiles(workspaces, config.server());
  }
}
