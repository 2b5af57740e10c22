package dev.sonde.core;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Self-contained HTML reports: everything inline (styles, ECharts, data, script) so a report opens
 * offline and prints; every piece of data or agent text goes in escaped, never as markup or code.
 */
public final class HtmlPage {
  private static final String ECHARTS = "webroot/vendor/echarts-6.1.0.min.js";
  private static volatile String echarts;

  private final StringBuilder head = new StringBuilder();
  private final StringBuilder body = new StringBuilder();

  public HtmlPage(String title) {
    head.append("<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>")
        .append(escape(title))
        .append("</title>\n");
  }

  /** Text as HTML text or attribute value. */
  public static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** A style sheet from the classpath's {@code report/} folder. */
  public HtmlPage style(String resource) {
    head.append("<style>\n").append(resource("report/" + resource)).append("</style>\n");
    return this;
  }

  /** ECharts, inline. */
  public HtmlPage echarts() {
    if (echarts == null) {
      echarts = resource(ECHARTS);
    }
    head.append("<script>").append(echarts).append("</script>\n");
    return this;
  }

  /** Markup built by the caller, who escapes what it puts in. */
  public HtmlPage html(String markup) {
    body.append(markup);
    return this;
  }

  /**
   * Data for the page's script as a JSON block: {@code <}, {@code >}, {@code &} and the two line
   * separators JavaScript treats as line ends are escaped, so no value can close the element.
   */
  public HtmlPage data(String id, JsonObject data) {
    String json =
        data.encode()
            .replace("<", "\\u003c")
            .replace(">", "\\u003e")
            .replace("&", "\\u0026")
            .replace("\u2028", "\\u2028")
            .replace("\u2029", "\\u2029");
    body.append("<script type=\"application/json\" id=\"")
        .append(escape(id))
        .append("\">")
        .append(json)
        .append("</script>\n");
    return this;
  }

  /** A script from the classpath's {@code report/} folder. */
  public HtmlPage script(String resource) {
    body.append("<script>\n").append(resource("report/" + resource)).append("</script>\n");
    return this;
  }

  public String render() {
    return "<!doctype html>\n<html lang=\"en\">\n<head>\n"
        + head
        + "</head>\n<body>\n"
        + body
        + "</body>\n</html>\n";
  }

  private static String resource(String path) {
    try (InputStream in = HtmlPage.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
