package dev.sonde.docs;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Sonde's own manual: the project's {@code docs/} folder, packed into the jar as {@code
 * sonde-docs}, and the tool reference, generated from the tool specs so it cannot drift from the
 * server.
 */
final class ManualSource implements DocsSource {
  static final String NAME = "sonde";
  static final String VERSION = "current";
  private static final String FOLDER = "sonde-docs";

  private final Supplier<String> toolReference;

  ManualSource(Supplier<String> toolReference) {
    this.toolReference = toolReference;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Sonde's manual: user guide, tool reference, SQL notes per engine, how-tos";
  }

  @Override
  public Set<String> defaultVersions() {
    return Set.of(VERSION);
  }

  @Override
  public List<PageFile> pages() throws IOException {
    List<PageFile> pages = new ArrayList<>();
    URL folder = ManualSource.class.getResource("/" + FOLDER);
    if (folder != null) {
      withFolder(
          folder,
          root -> {
            try (Stream<Path> walk = Files.walk(root)) {
              for (Path file : walk.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                String path = root.relativize(file).toString().replace('\\', '/');
                pages.add(page(path, Files.readString(file, StandardCharsets.UTF_8)));
              }
            }
          });
    }
    pages.add(page("reference/tools.md", toolReference.get()));
    return pages;
  }

  private static PageFile page(String path, String markdown) {
    String checksum = Checksums.of(markdown);
    return new PageFile(
        NAME + "/" + path,
        checksum,
        () ->
            DocPage.fromMarkdown(
                NAME,
                path,
                path,
                VERSION,
                "sonde://docs/" + NAME + "/" + path,
                markdown,
                checksum));
  }

  private interface FolderWork {
    void run(Path root) throws IOException;
  }

  /** Walks the folder whether it sits in the jar or, when run from the build, on disk. */
  private static void withFolder(URL folder, FolderWork work) throws IOException {
    URI uri;
    try {
      uri = folder.toURI();
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    if (!"jar".equals(uri.getScheme())) {
      work.run(Path.of(uri));
      return;
    }
    FileSystem jar;
    boolean opened = false;
    try {
      jar = FileSystems.newFileSystem(uri, Map.of());
      opened = true;
    } catch (FileSystemAlreadyExistsException e) {
      jar = FileSystems.getFileSystem(uri);
    }
    try {
      work.run(jar.getPath("/" + FOLDER));
    } finally {
      if (opened) {
        jar.close();
      }
    }
  }
}
