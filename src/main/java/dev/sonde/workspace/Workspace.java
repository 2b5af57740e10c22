package dev.sonde.workspace;

import dev.sonde.core.CallerException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.text.Normalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * One account's files: charts, dashboards, reports. Every path a caller gives is relative to the
 * workspace, normalised, and refused when it would leave it ({@code ..}, an absolute path, a link
 * pointing out), and names with invisible characters are refused. Every write goes to a temporary
 * file that is synced and renamed over the target, so a crash leaves either the old file or the new
 * one, never half of one; and the writes of one file hold its lock, so a read-change-write ({@link
 * #update}) is never undone by a concurrent one.
 */
public final class Workspace {
  /** Temporary files of writes in flight: hidden from listings, swept when found stale. */
  static final String TEMP_PREFIX = ".sonde-tmp-";

  private static final long STALE_TEMP_MILLIS = 60 * 60 * 1000L;

  private final Path root;
  private final PathLocks locks = new PathLocks();
  private final Predicate<String> anotherAccount;

  /**
   * The workspace at {@code root}; {@code anotherAccount} tells the top-level names that are other
   * accounts' folders, which links read from, so no change here may take one.
   */
  Workspace(Path root, Predicate<String> anotherAccount) {
    this.root = root;
    this.anotherAccount = anotherAccount;
  }

  /** {@link #resolve}, for a change: a path that a link would read as another account's refused. */
  private Path resolveToChange(String relative) {
    Path target = resolve(relative);
    String top = root.relativize(target).getName(0).toString();
    if (anotherAccount.test(top)) {
      throw new CallerException(
          "'"
              + relative
              + "' starts with "
              + top
              + "/, which links read as account "
              + top
              + "'s workspace: its files can be read, never changed; choose another folder name");
    }
    return target;
  }

  /** What tells two workspaces apart, for keys of what is kept per workspace (never shown). */
  public Path root() {
    return root;
  }

  /** A file or folder as a listing shows it: the path is relative to the workspace, with '/'. */
  public record Entry(String path, String name, boolean folder, long size, Instant modified) {}

  /** Writes the content of one file. */
  @FunctionalInterface
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /** What an update writes back, and what it answers its caller. */
  public record Revision<T>(byte[] content, T answer) {}

  /** The next content of a file, made from its current content. */
  @FunctionalInterface
  public interface Change<T> {
    Revision<T> apply(byte[] current) throws IOException;
  }

  /** {@code relative} inside the workspace, or a refusal saying why it is not acceptable. */
  public Path resolve(String relative) {
    if (relative == null || relative.isBlank()) {
      throw new CallerException("a path inside the workspace is required");
    }
    refuseInvisible(relative);
    // one spelling per name: a decomposed "café" is the same file as the composed one
    String path = Normalizer.normalize(relative.trim(), Normalizer.Form.NFC).replace('\\', '/');
    if (path.startsWith("/") || path.matches("^[A-Za-z]:.*") || path.startsWith("~")) {
      throw new CallerException(
          "'"
              + relative
              + "' is absolute; give a path relative to the workspace, e.g. GOLD/close.chart.json");
    }
    for (String part : path.split("/")) {
      if (part.equals("..")) {
        throw new CallerException(
            "'" + relative + "' climbs out with '..'; paths stay inside the workspace");
      }
      if (part.startsWith(TEMP_PREFIX)) {
        throw new CallerException(
            "'" + relative + "' uses a name Sonde keeps for its own temporary files");
      }
      if (part.chars().anyMatch(c -> ":*?\"<>|".indexOf(c) >= 0)) {
        throw new CallerException("'" + relative + "' holds one of : * ? \" < > |");
      }
    }
    Path resolved = root.resolve(path).normalize();
    if (!resolved.startsWith(root) || resolved.equals(root)) {
      throw new CallerException("'" + relative + "' is not a file or folder inside the workspace");
    }
    checkNoLinkOut(resolved, relative);
    return resolved;
  }

  /**
   * Refuses control characters, bidi overrides (U+202E makes "report[U+202E]lmth.exe" look like
   * "reportexe.html") and other invisible formatting characters, before any message echoes them.
   */
  private static void refuseInvisible(String relative) {
    for (String part : relative.split("[/\\\\]")) {
      if (!part.isEmpty() && Character.getType(part.codePointAt(0)) == Character.NON_SPACING_MARK) {
        throw new CallerException(
            "a name starts with the combining mark U+"
                + String.format("%04X", part.codePointAt(0))
                + ", which shows as nothing on its own; use visible characters only");
      }
    }
    relative
        .codePoints()
        .filter(Workspace::invisible)
        .findFirst()
        .ifPresent(
            c -> {
              throw new CallerException(
                  "the name holds U+"
                      + String.format("%04X", c)
                      + " (an invisible, blank-looking or direction-changing character); use visible"
                      + " characters only");
            });
  }

  /** Letters and marks that draw as blank space although Unicode does not class them as format. */
  private static final int[][] BLANK_LOOKING = {
    {0x034F, 0x034F},
    {0x115F, 0x1160},
    {0x17B4, 0x17B5},
    {0x180B, 0x180F},
    {0x2800, 0x2800},
    {0x3164, 0x3164},
    {0xFE00, 0xFE0F},
    {0xFFA0, 0xFFA0},
    {0xE0100, 0xE01EF}
  };

  private static boolean invisible(int c) {
    int type = Character.getType(c);
    if (type == Character.CONTROL
        || type == Character.FORMAT
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.SURROGATE
        || type == Character.PRIVATE_USE
        || type == Character.UNASSIGNED
        || (type == Character.SPACE_SEPARATOR && c != ' ')) {
      return true;
    }
    for (int[] range : BLANK_LOOKING) {
      if (c >= range[0] && c <= range[1]) {
        return true;
      }
    }
    return false;
  }

  /** The workspace-relative spelling of a resolved path, with '/'. */
  public String relative(Path path) {
    return root.relativize(path).toString().replace('\\', '/');
  }

  /** Refuses a path whose existing part runs through a link that lands outside the workspace. */
  private void checkNoLinkOut(Path resolved, String relative) {
    try {
      Files.createDirectories(root);
      Path realRoot = root.toRealPath();
      Path existing = resolved;
      while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
        existing = existing.getParent();
      }
      if (existing != null && !existing.toRealPath().startsWith(realRoot)) {
        throw new CallerException("'" + relative + "' leads out of the workspace through a link");
      }
    } catch (NoSuchFileException e) {
      // a dangling link: it points nowhere inside the workspace
      throw new CallerException("'" + relative + "' runs through a link that points nowhere");
    } catch (IOException e) {
      throw new CallerException(
          "'" + relative + "' cannot be checked: " + e.getClass().getSimpleName());
    }
  }

  /** Creates a folder and its parents; an existing folder is fine, a file in the way is not. */
  public Path createFolder(String relative) throws IOException {
    Path folder = resolveToChange(relative);
    if (Files.exists(folder) && !Files.isDirectory(folder)) {
      throw new CallerException("'" + relative + "' is a file, not a folder");
    }
    try {
      Files.createDirectories(folder);
    } catch (FileAlreadyExistsException e) {
      throw new CallerException("a file is in the way of folder '" + relative + "'");
    }
    return folder;
  }

  /**
   * The files and folders directly in {@code relative} (the workspace itself when null), by name.
   */
  public List<Entry> list(String relative) throws IOException {
    Path folder =
        relative == null || relative.isBlank() || relative.equals("/") || relative.equals(".")
            ? root
            : resolve(relative);
    Files.createDirectories(root);
    if (!Files.isDirectory(folder)) {
      throw new CallerException(
          Files.exists(folder)
              ? "'" + relative + "' is a file; list its folder instead"
              : "no folder '" + relative + "' in the workspace");
    }
    List<Entry> entries = new ArrayList<>();
    try (Stream<Path> children = Files.list(folder)) {
      for (Path child : (Iterable<Path>) children::iterator) {
        String name = child.getFileName().toString();
        BasicFileAttributes attributes =
            Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (name.startsWith(TEMP_PREFIX)) {
          sweepIfStale(child, attributes);
          continue;
        }
        if (attributes.isSymbolicLink()) {
          continue;
        }
        entries.add(
            new Entry(
                relative(child),
                name,
                attributes.isDirectory(),
                attributes.isDirectory() ? 0 : attributes.size(),
                attributes.lastModifiedTime().toInstant()));
      }
    }
    entries.sort(Comparator.comparing((Entry e) -> !e.folder()).thenComparing(Entry::name));
    return entries;
  }

  /** A temporary file left by a write that died long ago; a recent one may still be in flight. */
  private static void sweepIfStale(Path temp, BasicFileAttributes attributes) {
    if (attributes.lastModifiedTime().toMillis() < System.currentTimeMillis() - STALE_TEMP_MILLIS) {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        // swept on a later listing
      }
    }
  }

  /** Deletes a file, or an empty folder; a folder with files in it is refused. */
  public void delete(String relative) throws IOException {
    Path target = resolveToChange(relative);
    locks.holding(
        target,
        () -> {
          if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new CallerException(
                "no file '" + relative + "' in the workspace; list_files shows what is there");
          }
          try {
            Files.delete(target);
          } catch (DirectoryNotEmptyException e) {
            throw new CallerException(
                "folder '" + relative + "' is not empty; delete its files first");
          }
          return null;
        });
  }

  /** A file's content; this is what every reader of the workspace, the web viewer's too, uses. */
  public byte[] read(String relative) throws IOException {
    return readFile(resolve(relative), relative);
  }

  private static byte[] readFile(Path file, String relative) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new CallerException(
          "no file '" + relative + "' in the workspace; list_files shows what is there");
    }
    refuseHardLink(file, relative);
    return Files.readAllBytes(file);
  }

  /**
   * A file with several hard links may be one that also lives outside the workspace (a link made to
   * a secret); like a link pointing out, it is not read.
   */
  private static void refuseHardLink(Path file, String relative) throws IOException {
    Object links;
    try {
      links = Files.getAttribute(file, "unix:nlink");
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return; // no link counts on this file system
    }
    if (links instanceof Integer count && count > 1) {
      throw new CallerException(
          "'"
              + relative
              + "' has other hard links (the same file under another name, maybe outside the"
              + " workspace), so Sonde does not read it; replace it with a copy");
    }
  }

  /**
   * Reads a file, changes it and writes it back atomically while holding the file's lock, so
   * concurrent updates of one file run one after another and each sees the last one's result.
   */
  public <T> T update(String relative, Change<T> change) throws IOException {
    Path file = resolveToChange(relative);
    return locks.holding(
        file,
        () -> {
          Revision<T> next = change.apply(readFile(file, relative));
          writeAtomically(file, out -> out.write(next.content()));
          return next.answer();
        });
  }

  /**
   * Creates a file atomically unless one is there: answers false, writing nothing, when it exists,
   * so no file is ever replaced by it.
   */
  public boolean createNew(String relative, byte[] content) throws IOException {
    Path target = resolveToChange(relative);
    return locks.holding(
        target,
        () -> {
          if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return false;
          }
          writeAtomically(target, out -> out.write(content));
          return true;
        });
  }

  /** Replaces (or creates) a file with {@code content}, atomically; its folders are created. */
  public Path write(String relative, byte[] content) throws IOException {
    return write(relative, out -> out.write(content));
  }

  /**
   * Replaces (or creates) a file atomically: the content goes to a temporary file beside it, which
   * is forced to disk and then renamed over the target, and the folder is synced so the rename
   * survives a power cut.
   */
  public Path write(String relative, Content content) throws IOException {
    Path target = resolveToChange(relative);
    if (Files.isDirectory(target)) {
      throw new CallerException("'" + relative + "' is a folder");
    }
    return locks.holding(target, () -> writeAtomically(target, content));
  }

  /**
   * Replaces (or creates) any file atomically, as {@link #write(String, Content)} does in the
   * workspace; for files Sonde keeps outside it (a bootstrapped ontology).
   */
  public static Path writeAtomically(Path target, Content content) throws IOException {
    Path folder = target.toAbsolutePath().getParent();
    Files.createDirectories(folder);
    Path temp = folder.resolve(TEMP_PREFIX + UUID.randomUUID());
    try {
      try (FileChannel channel =
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        OutputStream out = Channels.newOutputStream(channel);
        content.writeTo(out);
        out.flush();
        channel.force(true);
      }
      try {
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("the file system cannot rename atomically", e);
      }
      syncFolder(folder);
      return target;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static void syncFolder(Path folder) {
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // some file systems cannot open a folder for syncing; the rename itself stays atomic
    }
  }
}
