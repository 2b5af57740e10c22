package dev.sonde.report;

import io.vertx.core.json.JsonObject;
import java.util.List;

/** A part of a report: a heading, markup built with escaped values, and ECharts options. */
public record Section(String heading, String html, List<JsonObject> charts) {}
