package io.github.llmbench.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SweepSummaryTest {
  @Test
  void aCommandIsShownWithoutItsSecrets() {
    assertEquals(
        "vllm serve m --api-key *** --port 1 --hf-token=*** http://h/x ***",
        SweepSummary.withoutSecrets(
            "vllm serve m --api-key abc --port 1 --hf-token=t0k http://user:pw@h/x KEY123",
            Optional.of("KEY123")));
  }
}
