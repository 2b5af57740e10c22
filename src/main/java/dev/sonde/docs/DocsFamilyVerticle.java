package dev.sonde.docs;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** Documentation search and reading over Sonde's manual and the configured sources. */
public final class DocsFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "docs";

  public DocsFamilyVerticle(FamilyServices services, DocsLibrary library) {
    super(
        FAMILY,
        services,
        List.of(
            new ListAvailableDocumentsTool(library),
            new SearchDocumentsTool(library),
            new GetFullDocumentContentTool(library, services.config().docs().maxDocumentChars()),
            new GetDocumentSectionsTool(library, services.config().docs().maxDocumentChars()),
            new ExtractCodeBlocksTool(library)));
  }
}
