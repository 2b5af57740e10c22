package dev.sonde.tools;

import dev.sonde.core.CallerException;
import dev.sonde.core.Quote;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * Tells a failure the caller can fix from an internal one, and words it for the caller. Most are
 * thrown as such; a file name the file system refuses as too long is the caller's name, not a
 * fault.
 */
final class CallerMistake {
  /** What Linux, macOS and Windows allow in one file or folder name. */
  static final int MAX_NAME_BYTES = 255;

  private CallerMistake() {}

  /** The message that says what to change, or null when {@code failure} is not the caller's. */
  static String messageOf(Throwable failure) {
    if (failure instanceof CallerException) {
      return failure.getMessage();
    }
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof FileSystemException e) {
        return nameTooLong(e);
      }
    }
    return null;
  }

  private static String nameTooLong(FileSystemException e) {
    for (String file : new String[] {e.getFile(), e.getOtherFile()}) {
      String name = longName(file);
      if (name != null) {
        return Quote.of(name)
            + " is "
            + name.getBytes(StandardCharsets.UTF_8).length
            + " bytes long; a file or folder name is at most "
            + MAX_NAME_BYTES
            + " bytes (UTF-8): use a shorter name";
      }
    }
    // the path as a whole is too long (Linux allows 4096 bytes): its names are not
    return "File name too long".equals(e.getReason())
        ? "the path is too long for the file system; use fewer or shorter folder names"
        : null;
  }

  /** The first name in {@code file} over the limit, or null; never the host's part of the path. */
  private static String longName(String file) {
    if (file == null) {
      return null;
    }
    for (Path part : Path.of(file)) {
      String name = part.toString();
      if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
        return name;
      }
    }
    return null;
  }
}
