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
import java.util.function.UnaryOperator;

/**
 * Levels whose figures the sections' rows tests know by construction, users sending back to back:
 * in {@link #generating} and {@link #pooled} each of a level's users sends {@value #PER_USER}
 * requests from the level's start, all users at once, so in flight is the users' count throughout,
 * the steady window is the whole level, and every figure is a sum of equal requests; in {@link
 * #backToBack} each sends a 1 s request a second. Analysed with or without telemetry (the server's
 * scrapes, the client probe's samples).
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

  /**
   * {@code users} users of {@code level} each sending {@code seconds} requests back to back from
   * {@code startMs}: every request 1 s long (its end the next one's start), TTFT 100 ms, 50 input
   * and 10 output tokens; {@code more} sets the rest.
   */
  static List<RequestRecord> backToBack(
      String level, int users, int seconds, long startMs, UnaryOperator<TestRecords.Builder> more) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int u = 0; u < users; u++) {
      for (int i = 0; i < seconds; i++) {
        long start = startMs + i * 1000L;
        rs.add(
            more.apply(
                    TestRecords.ok(level)
                        .id(level + "-" + startMs + "-" + u + "-" + i)
                        .start(start)
                        .end(start + 1000)
                        .ttft(100)
                        .e2el(1000)
                        .inputTokens(50)
                        .outputTokens(10))
                .build());
      }
    }
    return rs;
  }

  /** The analysis of these levels' records, without a model, GPU or telemetry. */
  @SafeVarargs
  static RunAnalysis analysis(List<RequestRecord>... levels) {
    return analysis(all(levels), RunAnalysis.Telemetry.NONE);
  }

  /**
   * The analysis of these records with this telemetry (the server's scrapes, the client probe's
   * samples), without a model or GPU.
   */
  static RunAnalysis analysis(List<RequestRecord> records, RunAnalysis.Telemetry telemetry) {
    return RunAnalysis.of(
        RunAnalysis.Inputs.builder(records).telemetry(telemetry).rooflineHint("hint").build());
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
