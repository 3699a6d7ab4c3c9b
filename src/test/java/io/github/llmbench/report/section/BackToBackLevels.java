package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.endpoints.Figures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;

/**
 * Levels whose figures the sections' rows tests know by construction: each of a level's users sends
 * {@value #PER_USER} requests back to back from the level's start, all users at once, so in flight
 * is the users' count throughout, the steady window is the whole level, and every figure is a sum
 * of equal requests.
 */
final class BackToBackLevels {

  static final long T = 1_700_000_000_000L;

  /** Requests per user. */
  static final int PER_USER = 5;

  /** Each generating request's output tokens: a first chunk, then 3 gaps. */
  static final int OUTPUT = 4;

  /** Each request's input tokens, unless told. */
  static final int INPUT = 100;

  /** The roofline's model. */
  static final ModelSpec MODEL = Catalog.model("qwen2.5-7b-instruct");

  /** A GPU of round figures: 100 TFLOP/s, 1 TB/s, so a ridge of 100 FLOP/B. */
  static final GpuSpec ROUND_GPU =
      new GpuSpec("round", "Round GPU", 100e12, 1e12, 80L << 30, "none");

  private BackToBackLevels() {}

  /**
   * A generating level: each request a TTFT of {@code ttft} ms then 3 gaps of {@code gap} ms
   * ({@value #OUTPUT} output tokens, E2EL ttft + 3 gap), {@value #INPUT} input tokens.
   */
  static List<RequestRecord> generating(
      String level, int users, long startMs, long ttft, long gap) {
    return generating(level, users, startMs, ttft, gap, INPUT);
  }

  static List<RequestRecord> generating(
      String level, int users, long startMs, long ttft, long gap, int input) {
    List<RequestRecord> rs = new ArrayList<>();
    long e2el = ttft + 3 * gap;
    for (int u = 0; u < users; u++) {
      for (int k = 0; k < PER_USER; k++) {
        rs.add(
            TestRecords.ok(level)
                .id(level + "-" + u + "-" + k)
                .start(startMs + k * e2el)
                .ttft(ttft)
                .tpot(gap)
                .inputTokens(input)
                .outputTokens(OUTPUT)
                .build());
      }
    }
    return rs;
  }

  /** A pooling level (embeddings): each request an E2EL of {@code e2el} ms, no output. */
  static List<RequestRecord> pooled(String level, int users, long startMs, long e2el, int input) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int u = 0; u < users; u++) {
      for (int k = 0; k < PER_USER; k++) {
        RequestRecord r =
            TestRecords.ok(level)
                .id(level + "-" + u + "-" + k)
                .start(startMs + k * e2el)
                .ttft(e2el) // a pooling request's TTFT is its E2EL, as vLLM sets it
                .inputTokens(input)
                .outputTokens(0)
                .build();
        rs.add(r.toBuilder().figures(Figures.POOLED).build());
      }
    }
    return rs;
  }

  /** The analysis of these levels' records, without a model, GPU or server metrics. */
  @SafeVarargs
  static RunAnalysis analysis(List<RequestRecord>... levels) {
    return RunAnalysis.of(RunAnalysis.Inputs.builder(all(levels)).rooflineHint("hint").build());
  }

  /** The analysis of these records with {@link #MODEL} on 2 x {@link #ROUND_GPU}: a roofline. */
  static RunAnalysis onTwoRoundGpus(List<RequestRecord> records) {
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(records).model(MODEL).gpu(ROUND_GPU).tp(2).build());
  }

  @SafeVarargs
  static List<RequestRecord> all(List<RequestRecord>... levels) {
    List<RequestRecord> rs = new ArrayList<>();
    for (List<RequestRecord> l : levels) {
      rs.addAll(l);
    }
    return rs;
  }
}
