package dev.sonde.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one reader of messages from clients, stricter than Vert.x's lenient codec: plain JSON (no
 * comments, no byte-order mark, nothing after the value, no repeated keys) of one object, nested at
 * most {@link #MAX_DEPTH} deep so no later recursion can overflow the stack.
 */
public final class WireJson {
  public static final int MAX_DEPTH = 64;
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  private WireJson() {}

  /** A message that is not one plain JSON object; its text says what to change. */
  public static final class Invalid extends Exception {
    Invalid(String message) {
      super(message, null, false, false);
    }
  }

  /** UTF-8 only, strictly: a body in another encoding or with overlong forms is refused. */
  public static JsonObject object(byte[] bytes) throws Invalid {
    // beyond ASCII, or a NUL (how UTF-16 and UTF-32 look): decode strictly first
    if (!isPlainAscii(bytes)) {
      return object(utf8(bytes));
    }
    // plain ASCII is UTF-8 already, and the parser reads it fastest as bytes
    try (JsonParser parser = FACTORY.createParser(bytes)) {
      return whole(parser);
    } catch (IOException e) {
      throw invalid(e);
    }
  }

  /** The text of strict UTF-8 bytes (no overlong forms, no encoded surrogates). */
  public static String utf8(byte[] bytes) throws Invalid {
    if (isPlainAscii(bytes)) {
      // every byte is its own character: no decoder needed
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new Invalid("the message is not valid UTF-8; send JSON encoded as UTF-8");
    }
  }

  private static boolean isPlainAscii(byte[] bytes) {
    for (byte b : bytes) {
      if (b <= 0) {
        return false;
      }
    }
    return true;
  }

  public static JsonObject object(String text) throws Invalid {
    if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
      throw new Invalid("the message starts with a byte-order mark; send plain UTF-8 JSON");
    }
    try (JsonParser parser = FACTORY.createParser(text)) {
      return whole(parser);
    } catch (IOException e) {
      throw invalid(e);
    }
  }

  /** One object and nothing after it, read into the maps and lists a JsonObject wraps. */
  private static JsonObject whole(JsonParser parser) throws IOException, Invalid {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      throw new Invalid("the message must be one JSON-RPC object");
    }
    Map<String, Object> message = object(parser);
    if (parser.nextToken() != null) {
      throw new Invalid("the message has more after its JSON object; send one object");
    }
    return new JsonObject(message);
  }

  private static Map<String, Object> object(JsonParser parser) throws IOException {
    Map<String, Object> map = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      map.put(name, value(parser, parser.nextToken()));
    }
    return map;
  }

  private static Object value(JsonParser parser, JsonToken token) throws IOException {
    return switch (token) {
      case START_OBJECT -> object(parser);
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        for (JsonToken next = parser.nextToken();
            next != JsonToken.END_ARRAY;
            next = parser.nextToken()) {
          list.add(value(parser, next));
        }
        yield list;
      }
      case VALUE_STRING -> parser.getText();
      case VALUE_NUMBER_INT -> parser.getNumberValue();
      case VALUE_NUMBER_FLOAT -> finite(parser);
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new JsonParseException(parser, "unexpected " + token);
    };
  }

  /** A number JSON can write back: 1e999999 would come back as Infinity, which JSON has not. */
  private static Number finite(JsonParser parser) throws IOException {
    Number number = parser.getNumberValue();
    if (number instanceof Double d && d.isInfinite()) {
      throw new JsonParseException(parser, "a number too large for a double");
    }
    return number;
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
