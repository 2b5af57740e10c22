package dev.sonde.chatbi;

import static dev.sonde.tools.TimezoneArg.TIMEZONE;
import static io.vertx.json.schema.common.dsl.Keywords.maxLength;

import dev.sonde.jobs.Job;
import dev.sonde.tools.Arg;
import dev.sonde.tools.ExecutionMode;
import dev.sonde.tools.Schemas;
import dev.sonde.tools.TaskSupport;
import dev.sonde.tools.TimezoneArg;
import dev.sonde.tools.Tool;
import dev.sonde.tools.ToolAnnotations;
import dev.sonde.tools.ToolContext;
import dev.sonde.tools.ToolResult;
import dev.sonde.tools.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * chat_bi: a business question in English, Chinese, Japanese or Korean answered with verified SQL
 * and its rows, in the reference system's envelope. A job: retrieve, generate (or prompt, llm,
 * extract), validate and execute arrive as progress whose value is the milliseconds so far.
 */
final class ChatBiTool implements Tool {
  static final int PREVIEW_ROWS = 10;

  private static final Arg<String> QUESTION =
      Arg.string(
              "nlq",
              "The question, e.g. 最近一个月销售额最高的前10个产品是什么？ or Which stores hold more stock than"
                  + " average, with their city?",
              maxLength(Schemas.QUESTION_LENGTH))
          .required();
  private static final Arg<String> DOMAIN =
      Arg.string("domain", "The ontology domain to ask (omitted: the only one, or the default)");

  private final String configuredZone;
  private final ChatBi chatBi;
  private final ToolSpec spec;

  ChatBiTool(String configuredZone, ChatBi chatBi) {
    this.configuredZone = configuredZone;
    this.chatBi = chatBi;
    this.spec =
        ToolSpec.builder("chat_bi")
            .title("Ask a business question")
            .description(
                "Answers a business question (English, Chinese, Japanese or Korean) over a domain"
                    + " ontology: retrieves the tables, metrics and values it is about, generates"
                    + " SQL (an embedded parser, or the configured model), validates it (read-only"
                    + " guard, tables and joins of the domain, EXPLAIN) and runs it. Returns"
                    + " {success, errormsg, msg, bizresult {sql, data {columns, rows, rowCount,"
                    + " truncated, actualRows}, trace, reqId}}. A question it cannot answer gives"
                    + " success false with the reason. Steps arrive as progress.")
            .input(QUESTION, DOMAIN, TIMEZONE)
            .output(outputSchema())
            .annotations(new ToolAnnotations(true, false, true, false))
            .mode(ExecutionMode.JOB)
            .tasks(TaskSupport.OPTIONAL)
            .build();
  }

  /** The envelope, exactly: success, errormsg, msg, bizresult. */
  static JsonObject outputSchema() {
    JsonObject strings =
        new JsonObject().put("type", "array").put("items", new JsonObject().put("type", "string"));
    JsonObject data =
        new JsonObject()
            .put("type", "object")
            .put(
                "properties",
                new JsonObject()
                    .put("columns", strings)
                    .put(
                        "rows",
                        new JsonObject()
                            .put("type", "array")
                            .put("items", new JsonObject().put("type", "object")))
                    .put("rowCount", new JsonObject().put("type", "integer"))
                    .put("truncated", new JsonObject().put("type", "boolean"))
                    .put("actualRows", new JsonObject().put("type", "integer")))
            .put(
                "required",
                new JsonArray(List.of("columns", "rows", "rowCount", "truncated", "actualRows")));
    JsonObject step =
        new JsonObject()
            .put("type", "object")
            .put(
                "properties",
                new JsonObject()
                    .put("step", new JsonObject().put("type", "string"))
                    .put("ok", new JsonObject().put("type", "boolean"))
                    .put("message", new JsonObject().put("type", "string"))
                    .put("millis", new JsonObject().put("type", "integer"))
                    .put("data", new JsonObject().put("type", "object")))
            .put("required", new JsonArray(List.of("step", "ok", "message", "millis")));
    JsonObject bizresult =
        new JsonObject()
            .put("type", "object")
            .put(
                "properties",
                new JsonObject()
                    .put("sql", new JsonObject().put("type", "string"))
                    .put("data", data)
                    .put("trace", new JsonObject().put("type", "array").put("items", step))
                    .put(
                        "reqId",
                        new JsonObject()
                            .put("type", "string")
                            .put("pattern", "^[0-9]{14}-[0-9a-f]{32}$"))
                    .put("error", new JsonObject().put("type", "string")))
            .put("required", new JsonArray(List.of("sql", "data", "trace", "reqId")));
    return new JsonObject()
        .put("type", "object")
        .put(
            "properties",
            new JsonObject()
                .put("success", new JsonObject().put("type", "boolean"))
                .put("errormsg", strings)
                .put("msg", strings)
                .put("bizresult", bizresult))
        .put("required", new JsonArray(List.of("success", "errormsg", "msg", "bizresult")));
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(ToolContext ctx) {
    Job job = ctx.job();
    return chatBi
        .ask(
            ctx.arg(QUESTION),
            ctx.arg(DOMAIN),
            TimezoneArg.zone(ctx.arg(TIMEZONE), configuredZone),
            ctx.call(),
            (step, cumulative) ->
                job.step(step.step(), step.ok(), step.message(), cumulative, null, step.toJson()))
        .map(envelope -> ToolResult.structured(envelope, text(envelope)));
  }

  /** A short answer sentence, a table preview and the SQL, for clients that show only text. */
  static String text(JsonObject envelope) {
    JsonObject biz = envelope.getJsonObject("bizresult");
    StringBuilder out = new StringBuilder();
    if (!envelope.getBoolean("success")) {
      out.append("Could not answer: ")
          .append(String.join(" / ", envelope.getJsonArray("errormsg").getList()))
          .append('\n');
    } else {
      JsonObject data = biz.getJsonObject("data");
      int count = data.getInteger("rowCount");
      out.append(
              count == 0 ? "No rows answer the question." : count + (count == 1 ? " row" : " rows"))
          .append(data.getBoolean("truncated") ? " (of " + data.getLong("actualRows") + ")" : "")
          .append(count > 0 ? ":" : "")
          .append('\n');
      List<String> columns = data.getJsonArray("columns").stream().map(String::valueOf).toList();
      if (count > 0) {
        out.append("| ").append(String.join(" | ", columns)).append(" |\n|");
        columns.forEach(c -> out.append("---|"));
        out.append('\n');
        JsonArray rows = data.getJsonArray("rows");
        for (int i = 0; i < Math.min(PREVIEW_ROWS, rows.size()); i++) {
          JsonObject row = rows.getJsonObject(i);
          out.append("| ");
          out.append(
              String.join(
                  " | ", columns.stream().map(c -> String.valueOf(row.getValue(c))).toList()));
          out.append(" |\n");
        }
        if (rows.size() > PREVIEW_ROWS) {
          out.append("... ").append(rows.size() - PREVIEW_ROWS).append(" more rows\n");
        }
      }
    }
    if (!biz.getString("sql", "").isEmpty()) {
      out.append("\n```sql\n").append(biz.getString("sql")).append("\n```\n");
    }
    return out.toString();
  }
}
