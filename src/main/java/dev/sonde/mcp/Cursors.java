package dev.sonde.mcp;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Opaque pagination cursors: a base64 offset. */
final class Cursors {
  private Cursors() {}

  static String encode(int offset) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(("o:" + offset).getBytes(StandardCharsets.UTF_8));
  }

  static int decode(String cursor, int size) {
    if (cursor == null) {
      return 0;
    }
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (text.startsWith("o:")) {
        int offset = Integer.parseInt(text.substring(2));
        if (offset >= 0 && offset <= size) {
          return offset;
        }
      }
    } catch (IllegalArgumentException e) {
      // falls through to the error below
    }
    throw new McpException(
        JsonRpc.INVALID_PARAMS, "invalid cursor; use the nextCursor of the last page");
  }

  /** A page of a listing under {@code key}, with {@code nextCursor} when more follow. */
  static JsonObject page(List<JsonObject> items, String cursor, int pageSize, String key) {
    int offset = decode(cursor, items.size());
    int end = Math.min(items.size(), offset + pageSize);
    JsonObject page =
        new JsonObject().put(key, new JsonArray(new ArrayList<>(items.subList(offset, end))));
    if (end < items.size()) {
      page.put("nextCursor", encode(end));
    }
    return page;
  }
}
