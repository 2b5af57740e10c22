package dev.sonde.tools;

import dev.sonde.config.SondeConfig;
import dev.sonde.jobs.JobRegistry;

/** What every family is given at construction: the configuration and the node's jobs. */
public record FamilyServices(SondeConfig config, JobRegistry jobs) {}
