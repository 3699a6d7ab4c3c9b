package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.analysis.ServingMetricsCalculatorTest;
import io.github.llmbench.endpoints.Figures;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class ServingResultBlockTest {

  /** The block of the seed run ({@code vllm bench serve}, shared/seeds/000_...txt lines 74-106). */
  static final List<String> SEED_BLOCK =
      List.of(
          "================= Serving Benchmark Result =================",
          "Successful requests:                     1000      ",
          "Failed requests:                         0         ",
          "Maximum request concurrency:             200       ",
          "Benchmark duration (s):                  184.06    ",
          "Total input tokens:                      1021847   ",
          "Total generated tokens:                  128000    ",
          "Request throughput (req/s):              5.43      ",
          "Output token throughput (tok/s):         695.43    ",
          "Peak output token throughput (tok/s):    3683.00   ",
          "Peak concurrent requests:                210.00    ",
          "Total token throughput (tok/s):          6247.13   ",
          "--------------------Time to First Token---------------------",
          "Mean TTFT (ms):                          4105.63   ",
          "Median TTFT (ms):                        1316.94   ",
          "P99 TTFT (ms):                           28579.09  ",
          "P90 TTFT (ms):                           13852.11  ",
          "----------Time per Output Token (excl. 1st token)-----------",
          "Mean TPOT (ms):                          255.23    ",
          "Median TPOT (ms):                        281.67    ",
          "P99 TPOT (ms):                           288.21    ",
          "P90 TPOT (ms):                           285.97    ",
          "--------------------Inter-token Latency---------------------",
          "Mean ITL (ms):                           255.23    ",
          "Median ITL (ms):                         325.15    ",
          "P99 ITL (ms):                            335.78    ",
          "P90 ITL (ms):                            329.41    ",
          "---------------------End-to-end Latency---------------------",
          "Mean E2EL (ms):                          36520.30  ",
          "Median E2EL (ms):                        37314.13  ",
          "P99 E2EL (ms):                           62661.13  ",
          "P90 E2EL (ms):                           47221.33  ",
          "============================================================");

  /**
   * The hand-made run of ServingMetricsCalculatorTest as Python prints it with vLLM's formats
   * ({@code "{:<40} {:<10}"}, {@code "{:<40} {:<10.2f}"}, {@code "{s:{c}^{n}}"} with n = 60) and
   * the numpy figures.
   */
  public static final List<String> HAND_MADE_C4_BLOCK =
      List.of(
          "============== Serving Benchmark Result (c4) ===============",
          "Successful requests:                     4         ",
          "Failed requests:                         1         ",
          "Maximum request concurrency:             4         ",
          "Benchmark duration (s):                  3.50      ",
          "Total input tokens:                      60        ",
          "Total generated tokens:                  14        ",
          "Request throughput (req/s):              1.14      ",
          "Output token throughput (tok/s):         4.00      ",
          "Peak output token throughput (tok/s):    7.00      ",
          "Peak concurrent requests:                3.00      ",
          "Total token throughput (tok/s):          21.14     ",
          "--------------------Time to First Token---------------------",
          "Mean TTFT (ms):                          362.50    ",
          "Median TTFT (ms):                        350.00    ",
          "P99 TTFT (ms):                           497.00    ",
          "P90 TTFT (ms):                           470.00    ",
          "----------Time per Output Token (excl. 1st token)-----------",
          "Mean TPOT (ms):                          268.33    ",
          "Median TPOT (ms):                        225.00    ",
          "P99 TPOT (ms):                           494.50    ",
          "P90 TPOT (ms):                           445.00    ",
          "--------------------Inter-token Latency---------------------",
          "Mean ITL (ms):                           335.71    ",
          "Median ITL (ms):                         300.00    ",
          "P99 ITL (ms):                            594.00    ",
          "P90 ITL (ms):                            540.00    ",
          "---------------------End-to-end Latency---------------------",
          "Mean E2EL (ms):                          950.00    ",
          "Median E2EL (ms):                        825.00    ",
          "P99 E2EL (ms):                           1871.50   ",
          "P90 E2EL (ms):                           1615.00   ",
          "============================================================");

  private static LatencyStats stats(double mean, double median, double p99, double p90) {
    Map<Double, Double> p = new LinkedHashMap<>();
    p.put(99.0, p99);
    p.put(90.0, p90);
    return new LatencyStats(1000, mean, median, 0.0, p);
  }

  @Test
  void aPoolingRunPrintsVllmsPoolingBlock() {
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      long e2el = 20_000 + 1_000L * i;
      records.add(
          RequestRecord.builder()
              .id("req-" + i)
              .level("c2")
              .startMs(1_000 + 10L * i)
              .endMs(1_030 + 10L * i)
              .ttftMicros(e2el)
              .tpotMicros(RequestRecord.ABSENT)
              .e2elMicros(e2el)
              .inputTokens(64 + i)
              .outputTokens(0)
              .httpStatus(200)
              .ok(true)
              .figures(Figures.POOLED)
              .build());
    }
    records.add(
        RequestRecord.builder()
            .id("req-9")
            .level("c2")
            .startMs(1_000)
            .endMs(1_100)
            .error("HTTP 500: x")
            .httpStatus(500)
            .figures(Figures.POOLED)
            .build());
    ServingMetrics m = ServingMetricsCalculator.compute(records, 2);
    assertEquals(Figures.POOLED, m.endpointFigures());
    List<String> block = lines(ServingResultBlock.format(m));
    List<String> labels =
        block.stream()
            .map(l -> Character.isLetter(l.charAt(0)) ? l.substring(0, 40).strip() : l)
            .toList();
    assertEquals(
        List.of(
            ServingResultBlock.center(" Serving Benchmark Result ", '=', ServingResultBlock.WIDTH),
            "Successful requests:",
            "Failed requests:",
            "Maximum request concurrency:",
            "Benchmark duration (s):",
            "Total input tokens:",
            "Request throughput (req/s):",
            "Input throughput (inputs/s):",
            "Total token throughput (tok/s):",
            ServingResultBlock.center("End-to-end Latency", '-', ServingResultBlock.WIDTH),
            "Mean E2EL (ms):",
            "Median E2EL (ms):",
            "P99 E2EL (ms):",
            "P90 E2EL (ms):",
            "=".repeat(ServingResultBlock.WIDTH)),
        labels);
    assertEquals(
        ServingResultBlock.rowText("Total input tokens:", Long.toString(m.totalInputTokens())),
        block.get(5));
    assertEquals(
        ServingResultBlock.rowText(
            "Total token throughput (tok/s):", Numbers.f2(m.inputThroughput())),
        block.get(8),
        "nothing generated: the input's tokens per second");
    assertEquals(
        ServingResultBlock.rowText("Mean E2EL (ms):", Numbers.f2(m.e2el().mean())), block.get(10));
  }

  static ServingMetrics seedMetrics() {
    return new ServingMetrics(
        1000,
        0,
        200,
        184.06,
        1021847,
        128000,
        5.43,
        695.43,
        6247.13,
        3683.0,
        210,
        stats(4105.63, 1316.94, 28579.09, 13852.11),
        stats(255.23, 281.67, 288.21, 285.97),
        stats(255.23, 325.15, 335.78, 329.41),
        stats(36520.30, 37314.13, 62661.13, 47221.33),
        0,
        List.of(99.0, 90.0),
        0);
  }

  private static List<String> lines(String text) {
    assertTrue(text.endsWith("\n"), "ends with a newline");
    return Arrays.asList(text.substring(0, text.length() - 1).split("\n", -1));
  }

  private static void assertLines(List<String> expected, List<String> actual) {
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      assertEquals(expected.get(i), actual.get(i), "line " + (i + 1));
    }
    assertEquals(expected.size(), actual.size(), "line count");
  }

  @Test
  void reproducesTheSeedBlockByteForByte() {
    assertLines(SEED_BLOCK, lines(ServingResultBlock.format(seedMetrics())));
    assertEquals(SEED_BLOCK, lines(ServingResultBlock.format(seedMetrics(), null)));
  }

  @Test
  void handMadeRunWithLevelTitleAndEstimatedNote() {
    ServingMetrics m =
        ServingMetricsCalculator.compute(ServingMetricsCalculatorTest.handMadeRun(), 4);
    assertEquals("Serving Benchmark Result (c4)", ServingResultBlock.titleFor("c4"));
    List<String> out = lines(ServingResultBlock.format(m, ServingResultBlock.titleFor("c4")));
    assertLines(HAND_MADE_C4_BLOCK, out.subList(0, out.size() - 1));
    String note = out.get(out.size() - 1);
    assertTrue(note.startsWith("Note: 1 of 4 successful requests had no usage chunk"), note);
  }

  @Test
  void noteOnlyWhenEstimatedAndConcurrencyRowOnlyWhenKnown() {
    ServingMetrics seed = seedMetrics();
    ServingMetrics noLevel =
        new ServingMetrics(
            seed.completed(),
            seed.failed(),
            null,
            seed.durationS(),
            seed.totalInputTokens(),
            seed.totalOutputTokens(),
            seed.requestThroughput(),
            seed.outputThroughput(),
            seed.totalTokenThroughput(),
            seed.maxOutputTokensPerS(),
            seed.maxConcurrentRequests(),
            seed.ttft(),
            seed.tpot(),
            seed.itl(),
            seed.e2el(),
            0,
            seed.percentiles(),
            0);
    List<String> out = lines(ServingResultBlock.format(noLevel));
    assertEquals(SEED_BLOCK.size() - 1, out.size());
    assertTrue(out.stream().noneMatch(l -> l.startsWith("Maximum request concurrency")));
  }

  @Test
  void pythonFormattingDetails() {
    // {:<10.2f} rounds the exact binary value half-even: 0.125 -> 0.12, 2.675 (2.67499..) -> 2.67
    assertEquals("0.12", Numbers.f2(0.125));
    assertEquals("0.38", Numbers.f2(0.375));
    assertEquals("2.67", Numbers.f2(2.675));
    assertEquals("1871.50", Numbers.f2(1871.4999999999998));
    assertEquals("-0.00", Numbers.f2(-0.001));
    assertEquals("1234567.00", Numbers.f2(1234567));
    // "{s:{c}^{n}}": the odd padding column goes right
    assertEquals("-ab--", ServingResultBlock.center("ab", '-', 5));
    assertEquals("toolong", ServingResultBlock.center("toolong", '-', 3));
    // a value wider than 10 is not cut
    assertEquals(
        "Total input tokens:                      12345678901",
        ServingResultBlock.rowText("Total input tokens:", "12345678901"));
  }
}
