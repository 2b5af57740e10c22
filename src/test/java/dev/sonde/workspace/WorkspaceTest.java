package dev.sonde.workspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sonde.core.CallerException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceTest {
  @TempDir Path dataDir;
  Workspace workspace;

  @BeforeEach
  void open() {
    workspace = new Workspaces(dataDir.resolve("workspace")).of("local");
  }

  @Test
  void pathsThatLeaveTheWorkspaceAreRefusedWithTheReason() {
    assertRefused("../other/x.json", "climbs out");
    assertRefused("GOLD/../../x.json", "climbs out");
    assertRefused("/etc/passwd", "absolute");
    assertRefused("C:\\Windows\\x", "absolute");
    assertRefused("~/x", "absolute");
    assertRefused("GOLD/.sonde-tmp-123", "temporary");
    assertRefused("a\u0000b", "U+0000");
    assertRefused(" ", "required");
    assertRefused("./", "not a file or folder inside");
  }

  @Test
  void aLinkOutOfTheWorkspaceIsNotFollowed() throws IOException {
    Path outside = Files.createDirectories(dataDir.resolve("secret"));
    Files.writeString(outside.resolve("key.txt"), "s3cret");
    workspace.createFolder("GOLD");
    Path root = dataDir.resolve("workspace/local");
    Files.createSymbolicLink(root.resolve("escape"), outside);
    Files.createSymbolicLink(root.resolve("GOLD/key.txt"), outside.resolve("key.txt"));
    assertRefused("escape/key.txt", "through a link");
    assertRefused("GOLD/key.txt", "through a link");
    assertThrows(CallerException.class, () -> workspace.write("escape/new.json", new byte[] {1}));
    assertFalse(Files.exists(outside.resolve("new.json")));
    assertEquals(
        List.of("GOLD"), workspace.list(null).stream().map(Workspace.Entry::name).toList());
    assertTrue(workspace.list("GOLD").isEmpty(), "links are not listed");
  }

  @Test
  void accountsAreFoldersWithPlainNames() {
    Workspaces all = new Workspaces(dataDir.resolve("workspace"));
    assertThrows(CallerException.class, () -> all.of("../root"));
    assertThrows(CallerException.class, () -> all.of(""));
    assertEquals(all.of("ana").resolve("x"), dataDir.resolve("workspace/ana/x").toAbsolutePath());
  }

  @Test
  void aWriteReplacesTheFileWholeAndCreatesItsFolders() throws IOException {
    workspace.write("GOLD/close.chart.json", "{\"v\":1}".getBytes(StandardCharsets.UTF_8));
    workspace.write("GOLD/close.chart.json", "{\"v\":2}".getBytes(StandardCharsets.UTF_8));
    assertEquals("{\"v\":2}", new String(workspace.read("GOLD/close.chart.json")));
    assertEquals(List.of("close.chart.json"), names("GOLD"));
  }

  @Test
  void aWriteThatFailsMidwayLeavesTheOldFileAndNoTemporaryFile() throws IOException {
    workspace.write("d.json", "old".getBytes(StandardCharsets.UTF_8));
    assertThrows(
        IOException.class,
        () ->
            workspace.write(
                "d.json",
                out -> {
                  out.write("half of the new".getBytes(StandardCharsets.UTF_8));
                  throw new IOException("disk full");
                }));
    assertEquals("old", new String(workspace.read("d.json")));
    try (Stream<Path> files = Files.list(dataDir.resolve("workspace/local"))) {
      assertEquals(List.of("d.json"), files.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void aProcessKilledInTheMiddleOfAWriteLeavesTheOldFileIntact() throws Exception {
    byte[] old = "{\"panels\":[]}".getBytes(StandardCharsets.UTF_8);
    workspace.write("board.json", old);
    Process writer =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                EndlessWriter.class.getName(),
                dataDir.resolve("workspace").toString(),
                "board.json")
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("writing", out.readLine(), "the writer started its write");
      writer.destroyForcibly();
      assertTrue(writer.waitFor(30, TimeUnit.SECONDS));
    }
    assertArrayEquals(old, workspace.read("board.json"));
    Path root = dataDir.resolve("workspace/local");
    Path temp;
    try (Stream<Path> files = Files.list(root)) {
      temp = files.filter(p -> !p.endsWith("board.json")).findFirst().orElseThrow();
    }
    assertTrue(temp.getFileName().toString().startsWith(Workspace.TEMP_PREFIX));
    assertEquals(List.of("board.json"), names(null), "the dead write's temporary file is hidden");
    Files.setLastModifiedTime(temp, FileTime.fromMillis(System.currentTimeMillis() - 7_200_000));
    workspace.list(null);
    assertFalse(Files.exists(temp), "a stale temporary file is swept");
  }

  @Test
  void foldersListFirstAndOnlyEmptyOnesCanBeDeleted() throws IOException {
    workspace.createFolder("reports/2026");
    workspace.write("reports/a.html", new byte[] {1, 2, 3});
    List<Workspace.Entry> entries = workspace.list("reports");
    assertEquals(List.of("2026", "a.html"), entries.stream().map(Workspace.Entry::name).toList());
    assertTrue(entries.get(0).folder());
    assertEquals(3, entries.get(1).size());
    assertEquals("reports/a.html", entries.get(1).path());
    CallerException full = assertThrows(CallerException.class, () -> workspace.delete("reports"));
    assertTrue(full.getMessage().contains("not empty"), full.getMessage());
    workspace.delete("reports/2026");
    workspace.delete("reports/a.html");
    assertTrue(workspace.list("reports").isEmpty());
    CallerException missing =
        assertThrows(CallerException.class, () -> workspace.delete("reports/a.html"));
    assertTrue(missing.getMessage().contains("list_files"), missing.getMessage());
  }

  @Test
  void namesWithBidiOverridesOrInvisibleCharactersAreRefused() {
    assertRefused("reports/invoice\u202Elmth.exe", "U+202E");
    assertRefused("a\u2066b.json", "U+2066");
    assertRefused("zero\u200Bwidth.json", "U+200B");
    assertRefused("line\u2028break.json", "U+2028");
    assertRefused("c1\u0085.json", "U+0085");
    assertEquals(
        "caf\u00e9/ch\u00e4rt.json",
        workspace.relative(workspace.resolve("caf\u00e9/ch\u00e4rt.json")));
  }

  @Test
  void blankLookingCharactersAreRefusedAndOneNameHasOneSpelling() {
    // each draws as nothing or as a space that is not one, as an attacker found
    for (String blank :
        List.of(
            "\u3164", "\uFFA0", "\u115F", "\u2800", "\u17B4", "\uFE0F", "\u034F", "\u00A0",
            "\u3000", "\uE000", "\uFFFF")) {
      assertRefused("a" + blank + "b.json", String.format("U+%04X", (int) blank.charAt(0)));
    }
    assertRefused("reports/\u0301x.json", "combining mark U+0301");
    // composed and decomposed café are one folder, not two that look alike
    assertEquals(workspace.resolve("caf\u00e9/x.json"), workspace.resolve("cafe\u0301/x.json"));
  }

  @Test
  void aHardLinkedFileIsNotRead() throws IOException {
    Path secret =
        Files.writeString(
            Files.createDirectories(dataDir.resolve("secret")).resolve("key"), "s3cret");
    Path root = Files.createDirectories(dataDir.resolve("workspace/local/reports"));
    Files.createLink(root.resolve("key.html"), secret);
    CallerException e =
        assertThrows(CallerException.class, () -> workspace.read("reports/key.html"));
    assertTrue(e.getMessage().contains("other hard links"), e.getMessage());
    assertFalse(e.getMessage().contains("s3cret"));
    workspace.write("reports/own.html", "mine".getBytes(StandardCharsets.UTF_8));
    assertEquals("mine", new String(workspace.read("reports/own.html"), StandardCharsets.UTF_8));
  }

  @Test
  void concurrentUpdatesOfOneFileRunOneAfterAnother() throws Exception {
    workspace.write("counter.json", "0".getBytes(StandardCharsets.UTF_8));
    ExecutorService threads = Executors.newFixedThreadPool(12);
    try {
      List<Future<Integer>> updates = new ArrayList<>();
      for (int i = 0; i < 48; i++) {
        updates.add(
            threads.submit(
                () ->
                    workspace.update(
                        "counter.json",
                        current -> {
                          int next =
                              Integer.parseInt(new String(current, StandardCharsets.UTF_8)) + 1;
                          return new Workspace.Revision<>(
                              String.valueOf(next).getBytes(StandardCharsets.UTF_8), next);
                        })));
      }
      java.util.Set<Integer> answers = new java.util.HashSet<>();
      for (Future<Integer> update : updates) {
        answers.add(update.get(30, TimeUnit.SECONDS));
      }
      assertEquals(48, answers.size(), "each update saw the one before it");
    } finally {
      threads.shutdownNow();
    }
    assertEquals("48", new String(workspace.read("counter.json"), StandardCharsets.UTF_8));
    CallerException missing =
        assertThrows(
            CallerException.class,
            () -> workspace.update("none.json", c -> new Workspace.Revision<>(c, null)));
    assertTrue(missing.getMessage().contains("no file"), missing.getMessage());
  }

  @Test
  void createNewNeverReplacesAFile() throws IOException {
    assertTrue(workspace.createNew("r/a.html", "first".getBytes(StandardCharsets.UTF_8)));
    assertFalse(workspace.createNew("r/a.html", "second".getBytes(StandardCharsets.UTF_8)));
    assertEquals("first", new String(workspace.read("r/a.html"), StandardCharsets.UTF_8));
  }

  private List<String> names(String folder) throws IOException {
    return workspace.list(folder).stream().map(Workspace.Entry::name).toList();
  }

  private void assertRefused(String path, String reason) {
    CallerException e = assertThrows(CallerException.class, () -> workspace.resolve(path));
    assertTrue(e.getMessage().contains(reason), path + " -> " + e.getMessage());
  }

  /** A process that starts replacing a file and never finishes, to be killed mid-write. */
  public static final class EndlessWriter {
    public static void main(String[] args) throws IOException {
      Workspace target = new Workspaces(Path.of(args[0])).of("local");
      target.write(
          args[1],
          out -> {
            out.write(new byte[1 << 20]);
            out.flush();
            System.out.println("writing");
            System.out.flush();
            while (true) {
              out.write(new byte[4096]);
              try {
                Thread.sleep(10);
              } catch (InterruptedException e) {
                return;
              }
            }
          });
    }
  }
}
