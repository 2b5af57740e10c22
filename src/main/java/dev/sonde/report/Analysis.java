package dev.sonde.report;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A template's findings: the compact summary the agent reads to write its analysis, and the
 * sections the report shows.
 */
public record Analysis(JsonObject summary, List<Section> sections) {}
