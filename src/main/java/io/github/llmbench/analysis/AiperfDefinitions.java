package io.github.llmbench.analysis;

import io.github.llmbench.records.ChunkTokenCounts;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * AIPerf's definitions (ai-dynamo/aiperf, aiperf/metrics/types/, aiperf/parsers/): per successful
 * ("valid") request, from the responses that carry content or reasoning (its parser drops the role
 * and usage chunks, aiperf/parsers/openai_parsers.py):
 *
 * <ul>
 *   <li><b>Time to First Token</b> = the first such response − the request's start: the kit's TTFT.
 *       <b>Time to Second Token</b> = the second − the first: the record's first gap.
 *   <li><b>Request Latency</b> = the last such response − the start: the kit's E2EL.
 *   <li><b>Output Sequence Length</b> (OSL) = the streamed text encoded with AIPerf's own
 *       tokenizer, without special tokens (aiperf/parsers/inference_result_parser.py), not the
 *       server's usage. Here: the record's {@code chunk_tokens} summed when the run counted with a
 *       local tokenizer ({@code -Dtokenizer}: the same encoding of the same text), else the
 *       server's {@code output_tokens}; the notes say which, and how many.
 *   <li><b>Inter Token Latency</b> = (Request Latency − TTFT) / (OSL − 1), per request, OSL ≥ 2;
 *       <b>Output Token Throughput Per User</b> = 1 / ITL (s).
 *   <li><b>Input Sequence Length</b>: AIPerf encodes the prompt's text alone (no chat template);
 *       here the server's {@code usage.prompt_tokens}, which has it.
 *   <li><b>Output Token Throughput</b> = Σ OSL / benchmark duration; <b>Request Throughput</b> =
 *       valid requests / duration; duration = the last valid response − the first valid request's
 *       start (aiperf/metrics/types/benchmark_duration_metric.py).
 * </ul>
 *
 * <p>Statistics over requests (ITL too: one value per request, not per gap): {@code avg}, {@code
 * min}, {@code max}, {@code p99}, {@code p90}, {@code p50} (numpy's linear percentiles) and {@code
 * std} (population), the columns of its console table; a single-valued figure fills {@code avg}
 * only.
 */
public final class AiperfDefinitions implements PeerTool {

  /** Its console table's title. */
  public static final String TITLE = "NVIDIA AIPerf | LLM Metrics";

  /** Its console table's statistic columns, in its order. */
  public static final List<String> COLUMNS =
      List.of("avg", "min", "max", "p99", "p90", "p50", "std");

  /** The percentiles its columns need: min and max are the 0th and 100th. */
  private static final List<Double> PERCENTILES = List.of(0.0, 100.0, 99.0, 90.0);

  @Override
  public String name() {
    return "aiperf";
  }

  @Override
  public PeerFigures figures(Level level) {
    ServingMetrics kit = level.kit(PERCENTILES);
    PerRequest per = PerRequest.of(level.completed());
    double durationS = per.durationS();
    List<PeerFigures.Row> rows = new ArrayList<>();
    rows.add(row("Time to First Token (ms)", per.ttftMs(), kit.ttft()));
    rows.add(row("Time to Second Token (ms)", per.ttstMs(), null));
    rows.add(row("Request Latency (ms)", per.latencyMs(), kit.e2el()));
    rows.add(row("Inter Token Latency (ms)", per.itlMs(), kit.itl()));
    rows.add(row("Output Token Throughput Per User (tokens/sec/user)", per.perUser(), null));
    rows.add(row("Output Sequence Length (tokens)", per.osl(), stats(per.serverOutput())));
    rows.add(row("Input Sequence Length (tokens)", per.isl(), stats(per.isl())));
    rows.add(
        single(
            "Output Token Throughput (tokens/sec)",
            durationS > 0 ? Arrays.stream(per.osl()).sum() / durationS : 0.0,
            kit.outputThroughput()));
    rows.add(
        single(
            "Request Throughput (requests/sec)",
            durationS > 0 ? per.count() / durationS : 0.0,
            kit.requestThroughput()));
    rows.add(single("Request Count (requests)", per.count(), kit.completed()));
    return new PeerFigures(
        name(),
        level.tag(),
        List.of(new PeerFigures.Table(TITLE, COLUMNS, rows)),
        notes(per, level));
  }

  /**
   * The values AIPerf computes per valid request, each array over the requests that have it.
   *
   * @param tokenizerCounted how many requests' OSL is the local tokenizer's count
   * @param firstStartMs the earliest start, epoch ms
   * @param lastResponseMicros the latest last text chunk, µs from {@code firstStartMs}
   */
  record PerRequest(
      double[] ttftMs,
      double[] ttstMs,
      double[] latencyMs,
      double[] itlMs,
      double[] perUser,
      double[] osl,
      double[] serverOutput,
      double[] isl,
      int count,
      int tokenizerCounted,
      long firstStartMs,
      long lastResponseMicros) {

    static PerRequest of(List<RequestRecord> completed) {
      PeerValues ttft = new PeerValues();
      PeerValues ttst = new PeerValues();
      PeerValues latency = new PeerValues();
      PeerValues itl = new PeerValues();
      PeerValues perUser = new PeerValues();
      PeerValues osl = new PeerValues();
      PeerValues server = new PeerValues();
      PeerValues isl = new PeerValues();
      int counted = 0;
      long first = Long.MAX_VALUE;
      for (RequestRecord r : completed) {
        first = Math.min(first, r.startMs());
      }
      long last = 0;
      for (RequestRecord r : completed) {
        Integer length = outputSequenceLength(r);
        counted += ChunkTokenCounts.of(r) != null ? 1 : 0;
        ttft.add(r.ttftMs());
        latency.add(r.e2elMs());
        osl.add(length);
        server.add(r.outputTokens());
        isl.add(r.inputTokens());
        if (r.itlMs().size() > 0) {
          ttst.add(r.itlMs().millis(0));
        }
        if (r.e2elMicros() != RequestRecord.ABSENT) {
          last = Math.max(last, (r.startMs() - first) * 1000 + r.e2elMicros());
        }
        if (length != null && length >= 2 && r.ttftMs() != null && r.e2elMs() != null) {
          double perToken = (r.e2elMs() - r.ttftMs()) / (length - 1);
          itl.add(perToken);
          if (perToken > 0) {
            perUser.add(1000.0 / perToken);
          }
        }
      }
      return new PerRequest(
          ttft.array(),
          ttst.array(),
          latency.array(),
          itl.array(),
          perUser.array(),
          osl.array(),
          server.array(),
          isl.array(),
          completed.size(),
          counted,
          completed.isEmpty() ? 0 : first,
          last);
    }

    /** From the first valid request's start to the last valid response, s. */
    double durationS() {
      return lastResponseMicros / 1e6;
    }
  }

  /**
   * AIPerf's OSL of a record: the local tokenizer's count of its text when the run had one, else
   * the server's; null when neither is known.
   */
  static Integer outputSequenceLength(RequestRecord r) {
    int[] chunks = ChunkTokenCounts.of(r);
    if (chunks != null) {
      return Arrays.stream(chunks).sum();
    }
    return r.outputTokens();
  }

  private static List<String> notes(PerRequest per, Level level) {
    List<String> notes = new ArrayList<>();
    int server = per.count() - per.tokenizerCounted();
    if (per.tokenizerCounted() > 0) {
      notes.add(
          "Output Sequence Length: "
              + per.tokenizerCounted()
              + " of "
              + per.count()
              + " requests counted with the run's local tokenizer (-Dtokenizer), as AIPerf"
              + " counts with its own (the same encoding of the same text, when it is the"
              + " model's tokenizer).");
    }
    if (server > 0) {
      notes.add(
          "Output Sequence Length: "
              + server
              + " of "
              + per.count()
              + " requests use the server's usage count: AIPerf re-counts the text with its own"
              + " tokenizer, so where its count is higher its ITL reads lower and its"
              + " throughputs higher by that ratio; a run with -Dtokenizer counts as it does.");
    }
    notes.add(
        "Inter Token Latency: (request latency - TTFT) / (OSL - 1) per request, statistics over"
            + " requests; the kit's is every gap between text chunks, statistics over gaps.");
    notes.add(
        "Input Sequence Length: the server's usage.prompt_tokens (with the chat template);"
            + " AIPerf encodes the prompt's text alone.");
    notes.add(
        "Throughputs: successful requests, from the first send to the last text chunk; the"
            + " kit's: every request, to the last end. Requests in flight (time-weighted mean): "
            + String.format(Locale.ROOT, "%.2f", level.meanInFlight())
            + (level.maxConcurrency() == null
                ? ""
                : " of " + level.maxConcurrency() + " configured")
            + ".");
    return notes;
  }

  private static PeerFigures.Row row(String label, double[] values, LatencyStats kit) {
    return new PeerFigures.Row(label, 2, columns(stats(values)), columns(kit));
  }

  private static PeerFigures.Row single(String label, double peer, double kit) {
    List<Double> p = new ArrayList<>(missing());
    List<Double> k = new ArrayList<>(missing());
    p.set(0, peer);
    k.set(0, kit);
    return new PeerFigures.Row(label, 2, p, k);
  }

  private static LatencyStats stats(double[] values) {
    return LatencyStats.of(values, values.length, PERCENTILES);
  }

  /** A figure's columns in AIPerf's order; all {@link PeerFigures#MISSING} without values. */
  private static List<Double> columns(LatencyStats s) {
    if (s == null || s.count() == 0) {
      return missing();
    }
    return List.of(
        s.mean(),
        s.percentile(0.0),
        s.percentile(100.0),
        s.percentile(99.0),
        s.percentile(90.0),
        s.median(),
        s.std());
  }

  private static List<Double> missing() {
    return COLUMNS.stream().map(c -> PeerFigures.MISSING).toList();
  }
}
