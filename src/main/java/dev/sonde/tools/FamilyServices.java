package dev.sonde.tools;

import dev.sonde.config.SondeConfig;
import dev.sonde.db.DatabaseRegistry;
import dev.sonde.jobs.JobRegistry;
import dev.sonde.timeseries.TagTables;
import dev.sonde.workspace.Workspaces;

/**
 * What every family is given at construction: configuration, the node's jobs, its databases and the
 * accounts' workspaces.
 */
public record FamilyServices(
    SondeConfig config,
    JobRegistry jobs,
    DatabaseRegistry databases,
    Workspaces workspaces,
    TagTables tagTables) {}
