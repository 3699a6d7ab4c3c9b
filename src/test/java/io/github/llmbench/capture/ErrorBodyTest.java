package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The server's own words from an error body, whatever its shape. */
class ErrorBodyTest {

  @Test
  void llamaServersContextErrorAsCaptured() throws Exception {
    try (InputStream in = ErrorBodyTest.class.getResourceAsStream("/llamacpp/error-context.json")) {
      String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(ErrorBody.message(body).startsWith("request ("), ErrorBody.message(body));
      assertTrue(
          ErrorBody.message(body).contains("exceeds the available context size"),
          ErrorBody.message(body));
    }
  }

  @Test
  void vllmFastApiAndPlainShapes() {
    assertEquals(
        "boom",
        ErrorBody.message(
            "{\"error\":{\"message\":\"boom\",\"type\":\"InternalServerError\",\"code\":500}}"));
    assertEquals(
        "This model's maximum context length is 4096 tokens.",
        ErrorBody.message(
            "{\"object\":\"error\",\"message\":\"This model's maximum context length is 4096 tokens.\",\"type\":\"BadRequestError\",\"code\":400}"));
    assertEquals("Not Found", ErrorBody.message("{\"detail\":\"Not Found\"}"));
    assertEquals(
        "[{\"loc\":[\"body\"],\"msg\":\"x\"}]",
        ErrorBody.message("{\"detail\":[{\"loc\":[\"body\"],\"msg\":\"x\"}]}"));
    assertEquals("rate limited", ErrorBody.message("{\"error\":\"rate limited\"}"));
    assertEquals(
        "upstream connect error or disconnect/reset before headers",
        ErrorBody.message("upstream connect error\nor disconnect/reset   before headers\n"));
    assertEquals("", ErrorBody.message(""));
  }

  @Test
  void longBodiesAreCutToOneLineOf300Characters() {
    String html = "<html>\n<body>" + "x".repeat(1000) + "</body></html>";
    String m = ErrorBody.message(html);
    assertEquals(300, m.length());
    assertTrue(m.startsWith("<html> <body>xxx") && m.endsWith("..."), m);
  }
}
