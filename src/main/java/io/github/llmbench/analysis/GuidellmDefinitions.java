package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * GuideLLM's definitions (vllm-project/guidellm, src/guidellm/schemas/request_stats.py per request,
 * src/guidellm/benchmark/schemas/metrics.py per benchmark, src/guidellm/schemas/ statistics.py for
 * the statistics), per successful request:
 *
 * <ul>
 *   <li><b>TTFT</b> = the first streamed line with generated text − the request's start: the kit's
 *       TTFT. <b>TTFOT</b> = the first answer (not reasoning) text − the start: the kit's TTFO, its
 *       TTFT for a request that did not reason (0 for one that never answered, as GuideLLM's {@code
 *       or 0.0}).
 *   <li><b>Output tokens</b>: the server's usage, else the streamed iterations (the kit's text
 *       chunks): the kit's count.
 *   <li><b>TPOT</b> = (the last token − the start) / output tokens: it <em>includes</em> TTFT;
 *       weighted by output tokens.
 *   <li><b>ITL</b> = (the last token − the first) / (output tokens − 1): the request's mean gap per
 *       token (the kit's TPOT of that request), weighted by output tokens − 1; its percentiles are
 *       over these per-request means, not over the gaps.
 *   <li><b>Request Latency</b> (s) = the stream's end ({@code [DONE]} read) − the start: the
 *       record's {@code end_ms − start_ms}, to the ms.
 * </ul>
 *
 * <p>Statistics: {@link WeightedDistribution} (weighted mean; a percentile is the first value whose
 * cumulative weight reaches it). The console shows Mdn and p95 of the latencies; its JSON holds the
 * mean and p99 too, which are printed here as well.
 *
 * <p>Server throughput, over the level (GuideLLM's {@code status="total"}): <b>concurrency</b>,
 * time-weighted over the level from the first send to the last end (all requests); <b>requests per
 * second</b> = all requests (failed too) / (the last end − the first send); <b>output tokens per
 * second</b> = output tokens / (the last token − the first first token), <b>input tokens per
 * second</b> = input tokens / (the last first token − the first first token) (GuideLLM times a
 * prompt's tokens at its first token), <b>total</b> = both / (the last token − the first first
 * token); the tokens over completed requests (the records of failed ones have none).
 */
public final class GuidellmDefinitions implements PeerTool {

  public static final String LATENCY_TITLE = "Request Latency Statistics (Completed Requests)";
  public static final String TOKENS_TITLE = "Request Token Statistics (Completed Requests)";
  public static final String THROUGHPUT_TITLE = "Server Throughput Statistics (All Requests)";

  /** The statistics of its latency and token tables. */
  public static final List<String> COLUMNS = List.of("Mean", "Mdn", "p95", "p99");

  /** The statistics of its throughput table. */
  public static final List<String> THROUGHPUT_COLUMNS = List.of("Mean", "Mdn");

  private static final List<Double> PERCENTILES = List.of(95.0, 99.0);

  @Override
  public String name() {
    return "guidellm";
  }

  @Override
  public PeerFigures figures(Level level) {
    ServingMetrics kit = level.kit(PERCENTILES);
    PerRequest per = PerRequest.of(level.completed());
    List<PeerFigures.Row> latency = new ArrayList<>();
    latency.add(row("Request Latency (Sec)", per.latencyS().distribution(), seconds(kit.e2el())));
    latency.add(row("TTFT (ms)", per.ttftMs().distribution(), columns(kit.ttft())));
    latency.add(
        row(
            "TTFOT (ms)",
            per.ttfotMs().distribution(),
            columns(LatencyStats.of(per.kitTtfoMs(), PERCENTILES))));
    latency.add(row("ITL (ms)", per.itlMs().distribution(), columns(kit.itl())));
    latency.add(row("TPOT (ms)", per.tpotMs().distribution(), columns(kit.tpot())));
    List<PeerFigures.Row> tokens = new ArrayList<>();
    tokens.add(tokenRow("Input Tok (Per Req)", per.inputTokens().values()));
    tokens.add(tokenRow("Output Tok (Per Req)", per.outputTokens().values()));
    return new PeerFigures(
        name(),
        level.tag(),
        List.of(
            new PeerFigures.Table(LATENCY_TITLE, COLUMNS, latency),
            new PeerFigures.Table(TOKENS_TITLE, COLUMNS, tokens),
            new PeerFigures.Table(THROUGHPUT_TITLE, THROUGHPUT_COLUMNS, throughput(level, kit))),
        notes(level));
  }

  /** The values of one figure over the completed requests, with their weights. */
  record Weighted(PeerValues values, PeerValues weights) {

    static Weighted empty() {
      return new Weighted(new PeerValues(), new PeerValues());
    }

    void add(double value, double weight) {
      values.add(value);
      weights.add(weight);
    }

    WeightedDistribution distribution() {
      return WeightedDistribution.of(values.array(), weights.array());
    }
  }

  /** GuideLLM's per-request figures of the completed requests. */
  record PerRequest(
      Weighted latencyS,
      Weighted ttftMs,
      Weighted ttfotMs,
      Weighted itlMs,
      Weighted tpotMs,
      Weighted inputTokens,
      Weighted outputTokens,
      List<Double> kitTtfoMs) {

    static PerRequest of(List<RequestRecord> completed) {
      PerRequest per =
          new PerRequest(
              Weighted.empty(),
              Weighted.empty(),
              Weighted.empty(),
              Weighted.empty(),
              Weighted.empty(),
              Weighted.empty(),
              Weighted.empty(),
              new ArrayList<>());
      completed.forEach(per::add);
      return per;
    }

    private void add(RequestRecord r) {
      double ttft = orZero(r.ttftMs());
      double e2el = orZero(r.e2elMs());
      int out = outputTokensOf(r);
      latencyS.add(Math.max(0, r.endMs() - r.startMs()) / 1000.0, 1);
      ttftMs.add(ttft, 1);
      double ttfo = r.reasoning() == null ? ttft : orZero(r.reasoning().ttfoMs());
      ttfotMs.add(ttfo, 1);
      if (r.reasoning() == null || r.reasoning().ttfoMs() != null) {
        kitTtfoMs.add(ttfo);
      }
      itlMs.add(out > 1 ? (e2el - ttft) / (out - 1) : 0.0, Math.max(0, out - 1));
      tpotMs.add(out > 0 ? e2el / out : 0.0, out);
      inputTokens.add(r.inputTokens() == null ? 0 : r.inputTokens(), 1);
      outputTokens.add(out, 1);
    }
  }

  /** The server's count, else the streamed text chunks, as GuideLLM's iterations. */
  static int outputTokensOf(RequestRecord r) {
    if (r.outputTokens() != null) {
      return r.outputTokens();
    }
    return r.ttftMicros() == RequestRecord.ABSENT ? 0 : 1 + r.itlMs().size();
  }

  private static List<PeerFigures.Row> throughput(Level level, ServingMetrics kit) {
    List<RequestRecord> completed = level.completed();
    Concurrency concurrency = Concurrency.of(level.records());
    TokenSpans spans = TokenSpans.of(completed);
    double requestSpanS = concurrency.spanS();
    List<PeerFigures.Row> rows = new ArrayList<>();
    rows.add(
        new PeerFigures.Row(
            "Requests Concurrency",
            2,
            List.of(concurrency.distribution().mean(), concurrency.distribution().median()),
            List.of(PeerFigures.MISSING, PeerFigures.MISSING)));
    rows.add(
        throughputRow(
            "Requests Per Sec",
            perSecond(level.records().size(), requestSpanS),
            kit.requestThroughput()));
    rows.add(
        throughputRow(
            "Input Tokens Per Sec",
            perSecond(spans.input(), spans.inputSpanS()),
            perSecond(kit.totalInputTokens(), kit.durationS())));
    rows.add(
        throughputRow(
            "Output Tokens Per Sec",
            perSecond(spans.output(), spans.outputSpanS()),
            kit.outputThroughput()));
    rows.add(
        throughputRow(
            "Total Tokens Per Sec",
            perSecond(spans.input() + spans.output(), spans.outputSpanS()),
            kit.totalTokenThroughput()));
    return rows;
  }

  /**
   * When the completed requests' tokens came: input tokens at each first token, output tokens from
   * each first token to each last.
   *
   * @param firstFirstMicros the earliest first token, µs from the epoch
   * @param lastFirstMicros the latest first token
   * @param lastTokenMicros the latest last token
   */
  record TokenSpans(
      long input, long output, long firstFirstMicros, long lastFirstMicros, long lastTokenMicros) {

    static TokenSpans of(List<RequestRecord> completed) {
      long input = 0;
      long output = 0;
      long firstFirst = Long.MAX_VALUE;
      long lastFirst = Long.MIN_VALUE;
      long lastToken = Long.MIN_VALUE;
      for (RequestRecord r : completed) {
        if (r.ttftMicros() == RequestRecord.ABSENT || r.e2elMicros() == RequestRecord.ABSENT) {
          continue;
        }
        input += r.inputTokens() == null ? 0 : r.inputTokens();
        output += outputTokensOf(r);
        long start = r.startMs() * 1000;
        firstFirst = Math.min(firstFirst, start + r.ttftMicros());
        lastFirst = Math.max(lastFirst, start + r.ttftMicros());
        lastToken = Math.max(lastToken, start + r.e2elMicros());
      }
      return new TokenSpans(input, output, firstFirst, lastFirst, lastToken);
    }

    double inputSpanS() {
      return lastFirstMicros > firstFirstMicros ? (lastFirstMicros - firstFirstMicros) / 1e6 : 0;
    }

    double outputSpanS() {
      return lastTokenMicros > firstFirstMicros ? (lastTokenMicros - firstFirstMicros) / 1e6 : 0;
    }
  }

  /**
   * Requests in flight over the level, time-weighted: each level of concurrency weighs the time it
   * lasted, from the first send to the last end.
   *
   * @param distribution the concurrency levels weighted by their durations
   * @param spanS from the first send to the last end, s
   */
  record Concurrency(WeightedDistribution distribution, double spanS) {

    static Concurrency of(List<RequestRecord> records) {
      long[] events = SteadyState.sortedEvents(records);
      PeerValues levels = new PeerValues();
      PeerValues durations = new PeerValues();
      int current = 0;
      for (int i = 0; i < events.length; i++) {
        current += SteadyState.isStart(events[i]) ? 1 : -1;
        long t = events[i] >> 1;
        if (i + 1 < events.length && (events[i + 1] >> 1) > t) {
          levels.add(current);
          durations.add((events[i + 1] >> 1) - t);
        }
      }
      double span =
          events.length == 0 ? 0 : ((events[events.length - 1] >> 1) - (events[0] >> 1)) / 1000.0;
      return new Concurrency(WeightedDistribution.of(levels.array(), durations.array()), span);
    }
  }

  private static List<String> notes(Level level) {
    List<String> notes = new ArrayList<>();
    notes.add(
        "TPOT: (last token - start) / output tokens per request, so it includes TTFT; weighted"
            + " by output tokens. The kit's excludes the first token.");
    notes.add(
        "ITL: (last token - first token) / (output tokens - 1) per request (the kit's TPOT of"
            + " that request), weighted by output tokens - 1: its percentiles are over"
            + " per-request means, where the kit's are over every gap between chunks.");
    notes.add(
        "Percentiles: the first value whose cumulative weight reaches p, without"
            + " interpolation; the kit's interpolate linearly (numpy).");
    notes.add(
        "Request Latency: to the stream's end (the record's end_ms, to the ms); the kit's E2EL"
            + " ends at the last text chunk.");
    notes.add(
        "Throughputs: requests per second count every request (failed too) from the first send"
            + " to the last end; tokens per second run from the first first token; the kit"
            + " divides by the level's duration."
            + (level.maxConcurrency() == null
                ? ""
                : " Configured concurrency: " + level.maxConcurrency() + "."));
    return notes;
  }

  private static PeerFigures.Row row(String label, WeightedDistribution d, List<Double> kit) {
    return new PeerFigures.Row(label, 2, columns(d), kit);
  }

  private static PeerFigures.Row tokenRow(String label, PeerValues values) {
    double[] v = values.array();
    return new PeerFigures.Row(
        label,
        2,
        columns(WeightedDistribution.of(v)),
        columns(LatencyStats.of(v, v.length, PERCENTILES)));
  }

  private static PeerFigures.Row throughputRow(String label, double peer, double kit) {
    return new PeerFigures.Row(
        label, 2, List.of(peer, PeerFigures.MISSING), List.of(kit, PeerFigures.MISSING));
  }

  private static List<Double> columns(WeightedDistribution d) {
    if (d.count() == 0) {
      return missing();
    }
    return List.of(d.mean(), d.median(), d.percentile(95.0), d.percentile(99.0));
  }

  /** The kit's mean, median, P95 and P99. */
  private static List<Double> columns(LatencyStats s) {
    if (s.count() == 0) {
      return missing();
    }
    return List.of(s.mean(), s.median(), s.percentile(95.0), s.percentile(99.0));
  }

  /** The kit's E2EL in seconds, as GuideLLM's request latency. */
  private static List<Double> seconds(LatencyStats e2elMs) {
    return columns(e2elMs).stream().map(v -> v / 1000.0).toList();
  }

  private static List<Double> missing() {
    return COLUMNS.stream().map(c -> PeerFigures.MISSING).toList();
  }

  private static double perSecond(double amount, double spanS) {
    return spanS > 0 ? amount / spanS : 0.0;
  }

  private static double orZero(Double value) {
    return value == null ? 0.0 : value;
  }
}
