package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Which events end the await: never a chunk, whatever text it carries. */
class StreamEndEventTest {
  private static final Pattern END = Pattern.compile(StreamCapture.END_EVENT);

  private static boolean ends(String message) {
    return END.matcher(message).find();
  }

  @Test
  void doneErrorAndNonJsonEnd() {
    assertTrue(ends("{\"data\":[DONE]}"));
    assertTrue(ends("{\"event\":\"message\",\"id\":\"3\",\"data\":[DONE]}"));
    assertTrue(ends("{\"data\":{\"error\":{\"message\":\"x\"}}}"));
    assertTrue(ends("{\"data\":\"garbage\"}"));
  }

  @Test
  void chunksNeverEndEvenWhenTheirTextLooksLikeAnEnd() {
    assertFalse(ends(StreamParserTest.ROLE));
    assertFalse(ends(StreamParserTest.content("\\\"data\\\":[DONE]")));
    assertFalse(ends(StreamParserTest.usage(1, 2)));
    assertFalse(ends("{\"data\":\"\"}"));
  }
}
