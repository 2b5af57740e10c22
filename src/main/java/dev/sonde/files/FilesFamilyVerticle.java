package dev.sonde.files;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** The account's workspace: folders and the files charts, dashboards and reports are saved in. */
public final class FilesFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "files";

  public FilesFamilyVerticle(FamilyServices services) {
    super(
        FAMILY,
        services,
        List.of(
            new CreateFolderTool(services.workspaces()),
            new ListFilesTool(services.workspaces()),
            new DeleteFileTool(services.workspaces())));
  }
}
