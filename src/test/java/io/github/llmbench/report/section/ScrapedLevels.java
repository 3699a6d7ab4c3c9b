package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Closed levels of two requests each, with the server's (and the GPUs') scrapes around them: the
 * runs the server-side sections' rows tests analyse. Level {@code i} (from 0) runs from {@link
 * #start}{@code (i)} for 10 s; at {@code c2} its steady window is 2 s to 8 s, where both requests
 * are in flight. The client's figures of a level: 20 input and 16 output tokens, a mean TTFT of 200
 * ms, 2 tokens per chunk.
 */
final class ScrapedLevels {
  static final long T = 1_700_000_000_000L;
  static final String URL = "http://127.0.0.1:8000/metrics";
  static final String DCGM = "http://127.0.0.1:9400/metrics";

  private ScrapedLevels() {}

  /** When level {@code i} starts: 20 s after the one before. */
  static long start(int i) {
    return T + 20_000L * i;
  }

  /**
   * Level {@code name}'s two requests from {@code start}: one over its whole 10 s (TTFT 100 ms),
   * one from 2 s to 8 s (TTFT 300 ms); each 10 input tokens, 8 output tokens in 4 chunks.
   */
  static List<RequestRecord> level(String name, long start) {
    return List.of(request(name, start, 10_000, 100), request(name, start + 2_000, 6_000, 300));
  }

  private static RequestRecord request(String level, long start, long e2el, double ttft) {
    double gap = (e2el - ttft) / 3;
    return TestRecords.ok(level)
        .start(start)
        .end(start + e2el)
        .ttft(ttft)
        .e2el(e2el)
        .itl(gap, gap, gap)
        .inputTokens(10)
        .outputTokens(8)
        .build();
  }

  /** A counter of the server's, scraped 1 s before the level from {@code start} and 1 s after. */
  static List<ServerSample> counter(String name, long start, double before, double after) {
    return List.of(sample(start - 1_000, name, before), sample(start + 11_000, name, after));
  }

  static ServerSample sample(long timeMs, String name, double value) {
    return new ServerSample(timeMs, URL, name, Map.of(), value);
  }

  /** A DCGM reading of GPU {@code gpu}, the simulator's where {@code simulated}. */
  static ServerSample gpu(long timeMs, String name, int gpu, double value, boolean simulated) {
    Map<String, String> labels =
        simulated
            ? Map.of("gpu", String.valueOf(gpu), "simulated", "true")
            : Map.of("gpu", String.valueOf(gpu));
    return new ServerSample(timeMs, DCGM, name, labels, value);
  }

  /** A run of level {@code name} from {@link #start}{@code (0)} with these scrapes. */
  static RunAnalysis run(String name, List<ServerSample> samples) {
    return analyse(level(name, start(0)), samples);
  }

  /** Levels c2 (with these scrapes) then c4, whose server reported nothing. */
  static RunAnalysis twoLevels(List<ServerSample> samples) {
    List<RequestRecord> records = new ArrayList<>(level("c2", start(0)));
    records.addAll(level("c4", start(1)));
    return analyse(records, samples);
  }

  static RunAnalysis analyse(List<RequestRecord> records, List<ServerSample> samples) {
    return BackToBackLevels.analysis(records, new RunAnalysis.Telemetry(samples, null));
  }
}
