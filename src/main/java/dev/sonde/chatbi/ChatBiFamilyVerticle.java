package dev.sonde.chatbi;

import dev.sonde.tools.FamilyServices;
import dev.sonde.tools.FamilyVerticle;
import java.util.List;

/** Natural-language questions answered with verified SQL over a domain ontology. */
public final class ChatBiFamilyVerticle extends FamilyVerticle {
  public static final String FAMILY = "chatbi";

  public ChatBiFamilyVerticle(FamilyServices services, ChatBi chatBi) {
    super(FAMILY, services, List.of(new ChatBiTool(services.configuredZone(), chatBi)));
  }
}
