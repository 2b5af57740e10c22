package dev.sonde.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The agent's Markdown in a report: links and images only to web and mail addresses. */
class AnalysisMarkdownTest {
  @Test
  void dataAndScriptUrlsAreDroppedFromLinksAndImages() {
    String html =
        AnalysisReports.markdown(
            "[a](data:text/html;base64,PHNjcmlwdD4=) ![b](data:image/svg+xml;base64,PHN2Zz4=)"
                + " [c](javascript:alert(1)) [d](JaVaScRiPt:alert(2)) [e](vbscript:x)"
                + " [f](https://example.com/x) [g](mailto:ops@example.com) [h](notes.html#top)");
    assertFalse(html.toLowerCase().contains("data:"), html);
    assertFalse(html.toLowerCase().contains("script:"), html);
    assertTrue(html.contains("href=\"https://example.com/x\""), html);
    assertTrue(html.contains("href=\"mailto:ops@example.com\""), html);
    assertTrue(html.contains("href=\"notes.html#top\""), html);
  }
}
