package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FeederRecordsTest {

  @Test
  void aRequestRoundTripsThroughAFeederRecord() {
    RequestSpec r = RequestSpec.ofPrompt("how fast", 16, "SL", 2);
    Map<String, Object> m = FeederRecords.of(r);
    assertEquals(
        Map.of("prompt", "how fast", "max_tokens", 16, "profile", "SL", "input_tokens", 2), m);
    assertEquals(r, FeederRecords.read(m::get, 128));
    RequestSpec chat =
        new RequestSpec(null, List.of(new RequestSpec.ChatMessage("user", "hi")), 8, null, -1);
    assertEquals(chat, FeederRecords.read(FeederRecords.of(chat)::get, 128));
  }

  @Test
  void csvStringsAreRead() {
    Map<String, Object> csv =
        Map.of("messages", "[{\"role\":\"user\",\"content\":\"hi\"}]", "max_tokens", " 12 ");
    RequestSpec r = FeederRecords.read(csv::get, 128);
    assertEquals("hi", r.messages().get(0).content());
    assertEquals(12, r.maxTokens());
    assertEquals(
        128,
        FeederRecords.read(Map.<String, Object>of("prompt", "x")::get, 128).maxTokens(),
        "-Doutput.len by default");
  }

  @Test
  void aBadRecordNamesWhatIsWrong() {
    String none =
        assertThrows(
                DatasetException.class,
                () -> FeederRecords.read(Map.<String, Object>of("text", "x")::get, 1))
            .getMessage();
    assertTrue(none.contains("neither 'prompt' nor 'messages'"), none);
    String max =
        assertThrows(
                DatasetException.class,
                () ->
                    FeederRecords.read(
                        Map.<String, Object>of("prompt", "x", "max_tokens", "lots")::get, 1))
            .getMessage();
    assertEquals(
        "a feeder record has max_tokens=lots (expected a whole number of tokens from 1 to 10000000)",
        max);
    assertThrows(
        DatasetException.class,
        () -> FeederRecords.read(Map.<String, Object>of("messages", "[1]")::get, 1));
  }

  /**
   * Issue 62 item 2: a JSON feeder's {@code max_tokens} of 2^32 + 1 (a long) was taken as 1 (its
   * {@code intValue}); past the one maximum it is refused.
   */
  @Test
  void maxTokensPastTheMaximumIsRefusedNotWrapped() {
    for (Object raw : List.<Object>of(4_294_967_297L, 2_147_483_647, "10000001", 1e30)) {
      String message =
          assertThrows(
                  DatasetException.class,
                  () ->
                      FeederRecords.read(
                          Map.<String, Object>of("prompt", "x", "max_tokens", raw)::get, 1))
              .getMessage();
      assertEquals(
          "a feeder record has max_tokens="
              + raw
              + " (expected a whole number of tokens from 1 to 10000000)",
          message);
    }
    assertEquals(
        10_000_000,
        FeederRecords.read(Map.<String, Object>of("prompt", "x", "max_tokens", 10_000_000L)::get, 1)
            .maxTokens());
  }
}
