package dev.sonde.chatbi;

import dev.sonde.chatbi.ChatBi.TraceStep;
import dev.sonde.config.SondeConfig.ChatBiConfig;
import dev.sonde.workspace.Workspace;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each chat_bi request's trace as JSON lines in {@code <data>/chatbi/trace/<yyyy-MM-dd>/<reqId>
 * .jsonl}: a first line with the question, then one line per step. Kept {@code traceKeepDays} days
 * and at most {@code traceKeepFiles} files, the oldest going first. A trace that cannot be written
 * is logged, never a reason to fail the answer.
 */
final class Traces {
  private static final Logger LOG = LoggerFactory.getLogger(Traces.class);
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd");

  private final Path root;
  private final ChatBiConfig config;

  Traces(Path root, ChatBiConfig config) {
    this.root = root;
    this.config = config;
  }

  /** {@code reqId} starts with yyyyMMdd, which names the day folder. */
  synchronized void write(String reqId, String question, List<TraceStep> steps) {
    String day = reqId.substring(0, 4) + "-" + reqId.substring(4, 6) + "-" + reqId.substring(6, 8);
    StringBuilder lines = new StringBuilder();
    lines.append(new JsonObject().put("reqId", reqId).put("nlq", question).encode()).append('\n');
    steps.forEach(s -> lines.append(s.toJson().encode()).append('\n'));
    try {
      Workspace.writeAtomically(
          root.resolve(day).resolve(reqId + ".jsonl"),
          out -> out.write(lines.toString().getBytes(StandardCharsets.UTF_8)));
      prune(LocalDate.parse(day, DAY));
    } catch (IOException | RuntimeException e) {
      LOG.warn("chat_bi trace {} not written: {}", reqId, e.getMessage());
    }
  }

  private void prune(LocalDate today) throws IOException {
    LocalDate oldest = today.minusDays(config.traceKeepDays() - 1L);
    List<Path> files = new ArrayList<>();
    try (Stream<Path> days = Files.list(root)) {
      for (Path folder : days.filter(Files::isDirectory).sorted().toList()) {
        LocalDate date;
        try {
          date = LocalDate.parse(folder.getFileName().toString(), DAY);
        } catch (RuntimeException notADay) {
          continue;
        }
        try (Stream<Path> inside = Files.list(folder)) {
          List<Path> traces = inside.filter(f -> f.toString().endsWith(".jsonl")).toList();
          if (date.isBefore(oldest)) {
            for (Path f : traces) {
              Files.deleteIfExists(f);
            }
          } else {
            files.addAll(traces);
          }
        }
      }
    }
    files.sort(Comparator.comparing(f -> f.getFileName().toString()));
    for (int i = 0; i < files.size() - config.traceKeepFiles(); i++) {
      Files.deleteIfExists(files.get(i));
    }
    try (Stream<Path> days = Files.list(root)) {
      for (Path folder : days.filter(Files::isDirectory).toList()) {
        try (Stream<Path> inside = Files.list(folder)) {
          if (inside.findAny().isEmpty()) {
            Files.deleteIfExists(folder);
          }
        }
      }
    }
  }
}
