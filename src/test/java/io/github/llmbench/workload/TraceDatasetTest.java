package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceDatasetTest {
  /**
   * A tokenizer where a token is a word and some words are two: words add up (as BPE words do after
   * a space).
   */
  private static final TokenCounter WORDS =
      text -> {
        int n = 0;
        for (String w : text.trim().split("\\s+")) {
          if (!w.isEmpty()) {
            n += w.length() > 9 ? 2 : 1;
          }
        }
        return OptionalInt.of(n);
      };

  private static RandomDataset words() {
    return new RandomDataset(
        RandomDataset.Calibration.measure(RandomDataset.shippedVocabulary(), WORDS), 1, 1, 0, 0, 1);
  }

  private static Path trace(Path dir, String... lines) throws Exception {
    Path f = dir.resolve("trace.jsonl");
    Files.writeString(f, String.join("\n", lines) + "\n");
    return f;
  }

  @Test
  void linesAreReadInTimeOrderFromTheFirstRequest(@TempDir Path dir) throws Exception {
    List<TraceDataset.Entry> e =
        TraceDataset.read(
            trace(
                dir,
                "{\"timestamp\": 27482, \"input_length\": 6955, \"output_length\": 52, \"hash_ids\": [46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59]}",
                "",
                "{\"timestamp\": 27000, \"input_length\": 10, \"output_length\": 3}"));
    assertEquals(2, e.size());
    assertEquals(0, e.get(0).offsetMs());
    assertEquals(10, e.get(0).inputLength());
    assertEquals(482, e.get(1).offsetMs());
    assertEquals(14, e.get(1).hashIds().length);
    TraceDataset d = TraceDataset.of(e, words(), 7);
    assertEquals(List.of(0.0, 0.241), d.sendTimesSeconds(2.0));
    assertEquals(52, d.maxTokens());
    assertEquals(6955, d.longestRequests().get(0).promptTokens());
  }

  @Test
  void equalHashIdsGiveEqualBlocksAndEveryPromptHasItsLength(@TempDir Path dir) throws Exception {
    TraceDataset d =
        TraceDataset.of(
            TraceDataset.read(
                trace(
                    dir,
                    "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 5, \"hash_ids\": [1, 2, 3]}",
                    "{\"timestamp\": 10, \"input_length\": 1200, \"output_length\": 5, \"hash_ids\": [1, 2, 9]}",
                    "{\"timestamp\": 20, \"input_length\": 700, \"output_length\": 5, \"hash_ids\": [4, 2]}",
                    "{\"timestamp\": 30, \"input_length\": 1100, \"output_length\": 5, \"hash_ids\": [1, 2]}")),
            words(),
            7);
    assertEquals(5, d.distinctBlocks());
    for (int i = 0; i < 4; i++) {
      RequestSpec r = d.request(i, null);
      assertEquals(r.promptTokens(), WORDS.count(r.prompt()).getAsInt(), "line " + i);
      assertEquals(5, r.maxTokens());
    }
    String a = d.request(0, null).prompt();
    String b = d.request(1, null).prompt();
    int shared = tokensInCommon(a, b);
    assertTrue(
        shared >= 1024 - 2 && shared < 1100,
        "ids 1, 2 shared: the first 1024 tokens, then they differ: " + shared);
    assertTrue(
        tokensInCommon(a, d.request(2, null).prompt()) < 5,
        "a different first id, a different prefix");
    // a block beyond the line's ids is its own
    assertNotEquals(
        a.substring(a.length() - 200),
        d.request(3, null).prompt().substring(d.request(3, null).prompt().length() - 200));
    assertNotEquals(a, d.withSeed(8).request(0, null).prompt(), "another seed, other text");
  }

  private static int tokensInCommon(String a, String b) {
    String[] x = a.split(" ");
    String[] y = b.split(" ");
    int n = 0;
    int tokens = 0;
    while (n < Math.min(x.length, y.length) && x[n].equals(y[n])) {
      tokens += WORDS.count(x[n]).getAsInt();
      n++;
    }
    return tokens;
  }

  @Test
  void badLinesAreNamedWithTheirLineNumber(@TempDir Path dir) throws Exception {
    assertEquals(
        "Malformed trace "
            + dir.resolve("trace.jsonl")
            + " line 2: no \"timestamp\" (expected the request's time in ms, a number from 0)",
        assertThrows(
                DatasetException.class,
                () ->
                    TraceDataset.read(
                        trace(
                            dir,
                            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 3}",
                            "{\"input_length\": 10, \"output_length\": 3}")))
            .getMessage());
    assertTrue(
        assertThrows(
                DatasetException.class,
                () ->
                    TraceDataset.read(
                        trace(
                            dir, "{\"timestamp\": 0, \"input_length\": -5, \"output_length\": 3}")))
            .getMessage()
            .endsWith(
                "line 1: \"input_length\" is -5 (expected a whole number of tokens from 1 to"
                    + " 10000000)"));
    assertTrue(
        assertThrows(
                DatasetException.class,
                () ->
                    TraceDataset.read(
                        trace(
                            dir, "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 0}")))
            .getMessage()
            .contains("\"output_length\" is 0"));
    assertTrue(
        assertThrows(
                DatasetException.class,
                () ->
                    TraceDataset.read(
                        trace(
                            dir,
                            "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 2, \"hash_ids\": [\"x\"]}")))
            .getMessage()
            .contains("\"hash_ids\" holds \"x\""));
    assertTrue(
        assertThrows(DatasetException.class, () -> TraceDataset.read(trace(dir, "not json")))
            .getMessage()
            .endsWith("line 1: not a JSON object"));
    assertTrue(
        assertThrows(DatasetException.class, () -> TraceDataset.read(trace(dir, "")))
            .getMessage()
            .endsWith("it holds no request"));
    assertTrue(
        assertThrows(DatasetException.class, () -> TraceDataset.read(dir.resolve("none.jsonl")))
            .getMessage()
            .endsWith("no such file"));
  }

  /**
   * Issue 62 item 2: lengths past the one maximum are refused as the trace is read, before any
   * prompt is built: {@code input_length} 2147483647 died of OutOfMemoryError, 400000000 of
   * NegativeArraySizeException (7 x 400000000 wraps an {@code int}).
   */
  @Test
  void lengthsPastTheMaximumAreRefusedBeforeAnyPromptIsBuilt(@TempDir Path dir) throws Exception {
    for (String field : List.of("input_length", "output_length")) {
      for (String value : List.of("2147483647", "400000000", "10000001", "99999999999999")) {
        String line =
            "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 5}"
                .replace("\"" + field + "\": 5", "\"" + field + "\": " + value);
        Path f = trace(dir, "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 5}", line);
        assertEquals(
            "Malformed trace "
                + f
                + " line 2: \""
                + field
                + "\" is "
                + value
                + " (expected a whole number of tokens from 1 to 10000000)",
            assertThrows(DatasetException.class, () -> TraceDataset.read(f)).getMessage());
      }
    }
    List<TraceDataset.Entry> top =
        TraceDataset.read(
            trace(dir, "{\"timestamp\": 0, \"input_length\": 10000000, \"output_length\": 1}"));
    assertEquals(10_000_000, top.get(0).inputLength(), "the maximum itself is accepted");
  }

  /** Issue 62 item 2: a replay that would take past -Dduration's limit is refused before load. */
  @Test
  void aReplayLongerThanDurationsLimitIsRefused(@TempDir Path dir) throws Exception {
    Path f =
        trace(
            dir,
            "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 5}",
            "{\"timestamp\": 1000000000000, \"input_length\": 5, \"output_length\": 5}");
    List<TraceDataset.Entry> lines = TraceDataset.read(f);
    assertEquals(
        "Invalid -Ddataset=trace:"
            + f
            + ": its requests span 1.00e+09 s, sent over 1.00e+09 s at -Dtrace.speed=1.0 (expected"
            + " a replay of at most 604800 s, -Dduration's limit: the timestamps in ms, a higher"
            + " -Dtrace.speed, or -Dprompts=N for the first N)",
        assertThrows(DatasetException.class, () -> TraceDataset.checkReplayTime(lines, 1.0, f))
            .getMessage());
    TraceDataset.checkReplayTime(lines, 2000, f); // 5.8 days at 2000 times the trace's pace
    List<TraceDataset.Entry> short_ =
        TraceDataset.read(
            trace(
                dir,
                "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 5}",
                "{\"timestamp\": 60000, \"input_length\": 5, \"output_length\": 5}"));
    assertTrue(
        assertThrows(DatasetException.class, () -> TraceDataset.checkReplayTime(short_, 1e-9, f))
            .getMessage()
            .contains("sent over 6.00e+10 s at -Dtrace.speed=1.0E-9"));
  }
}
