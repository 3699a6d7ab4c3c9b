package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ContextFitTest {
  private final CharTokenizer chars = new CharTokenizer(true, true);

  @Test
  void theLongestRequestIsPromptTemplateAndMaxTokens() {
    RandomDataset random =
        new RandomDataset(RandomDataset.Calibration.estimated(List.of("a")), 1000, 100, 0.5, 24, 1);
    ContextFit.Longest l =
        ContextFit.longest(random.longestRequests(), chars, 12, OptionalInt.empty()).orElseThrow();
    assertEquals(24 + 1500 + 12, l.promptTokens(), "prefix + top of the range + chat template");
    assertEquals(150, l.maxTokens());
    assertTrue(ContextFit.problem(l, 1686, "x").isEmpty(), "exactly full fits");
    assertEquals(
        "The longest request does not fit the server's context: 1536 prompt tokens + max_tokens 150 = 1686 tokens > 1685"
            + " (n_ctx per slot of GET /props); lower -Dinput.len, -Dprefix.len, -Drange.ratio or -Doutput.len (or the"
            + " dataset's longest entries), or give the server more context",
        ContextFit.problem(l, 1685, "n_ctx per slot of GET /props").orElseThrow());
    // -Dextra.body's max_tokens is what every request asks for
    assertEquals(
        4000,
        ContextFit.longest(random.longestRequests(), chars, 0, OptionalInt.of(4000))
            .orElseThrow()
            .maxTokens());
  }

  @Test
  void fileEntriesAreCountedByTheServer() {
    List<RequestSpec> entries =
        List.of(
            RequestSpec.ofPrompt("short", 500, null, -1),
            RequestSpec.ofPrompt("x".repeat(900), 10, null, -1),
            RequestSpec.ofPrompt("y".repeat(300), 20, null, -1));
    ContextFit.Longest l = ContextFit.longest(entries, chars, 0, OptionalInt.empty()).orElseThrow();
    assertEquals(900, l.promptTokens(), "the server's count, less its BOS");
    assertEquals(910, l.total());
    assertTrue(
        ContextFit.longest(entries, ServerTokenizer.NONE, 0, OptionalInt.empty()).isEmpty(),
        "no tokenizer: not counted");
  }

  @Test
  void slotsSharingOneContextAreWarnedOfWhenTheLoadOverfillsIt() {
    var shared =
        new PreparedWorkload.ContextLength(4096, "n_ctx of GET /props, shared by its 4 slots", 4);
    String w = PreparedWorkload.sharedContextWarning(shared, 1116, 8);
    assertTrue(
        w.contains("4 requests in flight of up to 1116 tokens need 4464")
            && w.contains("-np 4 -c 4464"),
        w);
    assertEquals("", PreparedWorkload.sharedContextWarning(shared, 1000, 8), "4 x 1000 fits");
    assertEquals("", PreparedWorkload.sharedContextWarning(shared, 3000, 1), "one at a time");
    assertEquals("", PreparedWorkload.sharedContextWarning(shared, 3000, 0), "unbounded: unknown");
    assertEquals(
        "",
        PreparedWorkload.sharedContextWarning(
            new PreparedWorkload.ContextLength(1024, "n_ctx per slot of GET /props"), 1000, 8),
        "each slot its own context");
  }

  /**
   * Issue 62 item 2: a request whose lengths add up past an {@code int} (a JSONL line's {@code
   * "max_tokens": 2147483647}) is refused, where an {@code int} sum wrapped round to -2147483640
   * and seemed to fit.
   */
  @Test
  void theSumOfLengthsNearIntsTopDoesNotWrapIntoFitting() {
    List<RequestSpec> entries = List.of(RequestSpec.ofPrompt("", Integer.MAX_VALUE, null, 9));
    ContextFit.Longest l = ContextFit.longest(entries, chars, 0, OptionalInt.empty()).orElseThrow();
    assertEquals(2_147_483_656L, l.total());
    assertTrue(
        ContextFit.problem(l, 4096, "x")
            .orElseThrow()
            .contains("9 prompt tokens + max_tokens 2147483647 = 2147483656 tokens > 4096"));
    // -Dextra.body's max_tokens the same
    ContextFit.Longest extra =
        ContextFit.longest(
                List.of(RequestSpec.ofPrompt("", 16, null, 100)),
                chars,
                0,
                OptionalInt.of(Integer.MAX_VALUE))
            .orElseThrow();
    assertTrue(ContextFit.problem(extra, 4096, "x").isPresent());
    // a conversation's last turn carries all the turns before it: 1000 turns of 10M + 10M
    ContextFit.Longest last = new ContextFit.Longest(10_000_000, 10_000_000).lastTurnOf(1000);
    assertEquals(1000L * 10_000_000 + 999L * 10_000_000, last.promptTokens());
    assertTrue(ContextFit.problem(last, 131_072, "x").isPresent());
  }
}
