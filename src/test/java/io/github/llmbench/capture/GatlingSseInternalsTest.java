package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Breaks loudly when a Gatling upgrade moves the SSE internals that failure reasons come from
 * (SseFsm.currentState, SseCrashedState.errorMessage): fix {@link GatlingSseInternals} then.
 */
class GatlingSseInternalsTest {
  @Test
  void theFieldsReadByReflectionExist() {
    assertTrue(
        GatlingSseInternals.available(),
        "Gatling's SseFsm.currentState / SseCrashedState.errorMessage moved: update GatlingSseInternals");
  }
}
