package dev.sonde.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.Map;

/**
 * The one reader of messages from clients, stricter than Vert.x's lenient codec: plain JSON (no
 * comments, no byte-order mark, nothing after the value, no repeated keys) of one object, nested at
 * most {@link #MAX_DEPTH} deep so no later recursion can overflow the stack.
 */
public final class WireJson {
  public static final int MAX_DEPTH = 64;
  private static final ObjectMapper READER =
      new ObjectMapper(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                  .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private WireJson() {}

  /** A message that is not one plain JSON object; its text says what to change. */
  public static final class Invalid extends Exception {
    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  public static JsonObject object(byte[] bytes) throws Invalid {
    if (bytes.length >= 3
        && (bytes[0] & 0xff) == 0xef
        && (bytes[1] & 0xff) == 0xbb
        && (bytes[2] & 0xff) == 0xbf) {
      throw new Invalid("the message starts with a byte-order mark; send plain UTF-8 JSON");
    }
    try {
      return wrap(READER.readValue(bytes, Object.class));
    } catch (IOException e) {
      throw invalid(e);
    }
  }

  public static JsonObject object(String text) throws Invalid {
    if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
      throw new Invalid("the message starts with a byte-order mark; send plain UTF-8 JSON");
    }
    try {
      return wrap(READER.readValue(text, Object.class));
    } catch (IOException e) {
      throw invalid(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static JsonObject wrap(Object value) throws Invalid {
    if (!(value instanceof Map)) {
      throw new Invalid("the message must be one JSON-RPC object");
    }
    return new JsonObject((Map<String, Object>) value);
  }

  private static Invalid invalid(IOException e) {
    if (e instanceof StreamConstraintsException limit) {
      return new Invalid(
          limit.getOriginalMessage().startsWith("Document nesting depth")
              ? "the message is nested deeper than " + MAX_DEPTH + " levels"
              : "the message holds a name, string or number longer than the reader allows");
    }
    String detail = e instanceof JsonProcessingException j ? j.getOriginalMessage() : "unreadable";
    // the parser quotes at most a token of the input; cut it anyway so nothing long is echoed
    if (detail.length() > 160) {
      detail = detail.substring(0, 160) + "…";
    }
    return new Invalid("the message is not valid JSON: " + detail);
  }
}
