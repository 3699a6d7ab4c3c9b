package io.github.llmbench.analysis;

import io.github.llmbench.endpoints.Figures;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns per-request records ({@code llm/requests.jsonl}) into the serving metrics that {@code vllm
 * bench serve} reports. Pure: no I/O, no clock.
 *
 * <p>Definitions, over the records given (the caller filters by level, see {@link #byLevel}):
 *
 * <ul>
 *   <li><b>completed</b> = records with {@code ok}; <b>failed</b> = the others.
 *   <li><b>duration</b> (s) = (max {@code end_ms} - min {@code start_ms}) / 1000 over ALL records
 *       (vLLM: from the benchmark start to the end of the last request). 0 when there are no
 *       records.
 *   <li><b>total_input_tokens</b> = sum of {@code input_tokens} over completed requests (null
 *       counts 0); <b>total_output_tokens</b> = sum of {@code output_tokens} over completed
 *       requests (null counts 0).
 *   <li><b>request_throughput</b> = completed / duration; <b>output_throughput</b> = total output
 *       tokens / duration; <b>total_token_throughput</b> = (input + output tokens) / duration. All
 *       three are 0 when the duration is 0.
 *   <li><b>TTFT, TPOT, E2EL</b>: mean, median, std, percentiles over completed requests (TPOT only
 *       where non-null, i.e. more than one output token). <b>ITL</b>: over ALL {@code itl_ms}
 *       values of completed requests pooled together, as vLLM does (counted in an exact histogram
 *       of whole µs, {@link MicrosHistogram}: the figures of sorting them, without a list of one
 *       value per chunk). Percentiles use numpy's default linear interpolation; an empty list gives
 *       zeros, as vLLM's {@code np.mean(x or 0)} (see {@link LatencyStats}).
 *   <li><b>max_output_tokens_per_s</b> ("Peak output token throughput"), as vLLM computes it: every
 *       text-chunk arrival of a completed request ({@code start + ttft}, then adding each ITL in
 *       turn) goes into a 1-second bucket counted from the earliest start of a completed request;
 *       the peak is the largest bucket. vLLM counts each chunk as one token. We do the same, except
 *       that when a request's {@code output_tokens} differs from its number of chunks (servers that
 *       send several tokens per chunk), each of its chunks weighs {@code output_tokens / chunks},
 *       so that the buckets add up to the real token count.
 *   <li><b>max_concurrent_requests</b> ("Peak concurrent requests"): the EXACT maximum number of
 *       requests in flight, by a sweep over the half-open intervals [{@code start_ms}, {@code
 *       end_ms}) of ALL records, ok and failed (a request ending at t and one starting at t do not
 *       overlap). Older vLLM versions took the maximum over 1-second buckets of requests active
 *       during each second, which overstates it (a seed run printed 210 at concurrency 200);
 *       current vLLM sweeps like this but over successful requests only.
 *   <li><b>maximum request concurrency</b>: the configured level, given by the caller.
 *   <li><b>output_tokens_estimated_count</b>: completed requests whose output tokens were estimated
 *       (no usage chunk), so the report can flag the token figures.
 *   <li><b>pooling</b>: every record went to a pooling endpoint (embeddings), as vLLM's {@code
 *       calculate_metrics_for_embeddings}: the same counts, duration, input tokens and E2EL (the
 *       output tokens are 0, so the total token throughput is the input's).
 * </ul>
 */
public final class ServingMetricsCalculator {

  private ServingMetricsCalculator() {}

  /** Metrics of the records with the default percentiles (99, 90). */
  public static ServingMetrics compute(List<RequestRecord> records, int maxConcurrency) {
    return compute(records, Integer.valueOf(maxConcurrency), LatencyStats.DEFAULT_PERCENTILES);
  }

  /** Metrics of the records with the given percentiles (each in [0, 100]), in order. */
  public static ServingMetrics compute(
      List<RequestRecord> records, int maxConcurrency, List<Double> percentiles) {
    return compute(records, Integer.valueOf(maxConcurrency), percentiles);
  }

  /**
   * Metrics of the records.
   *
   * @param records the records of one level, or of the whole run
   * @param maxConcurrency the configured maximum concurrency, null when there is none (e.g. for the
   *     whole of a multi-level run)
   * @param percentiles the percentiles to report, in order, each in [0, 100]
   */
  public static ServingMetrics compute(
      Collection<RequestRecord> records, Integer maxConcurrency, List<Double> percentiles) {
    return compute(records, maxConcurrency, percentiles, percentiles);
  }

  /**
   * Metrics of the records that print the shown percentiles and hold the computed ones besides
   * (those gates name).
   */
  public static ServingMetrics compute(
      Collection<RequestRecord> records, Integer maxConcurrency, ReportedPercentiles percentiles) {
    return compute(records, maxConcurrency, percentiles.shown(), percentiles.computed());
  }

  private static ServingMetrics compute(
      Collection<RequestRecord> records,
      Integer maxConcurrency,
      List<Double> shown,
      List<Double> computed) {
    List<Double> percentiles = new ArrayList<>(shown);
    computed.stream().filter(p -> !shown.contains(p)).forEach(percentiles::add);
    for (Double p : percentiles) {
      Percentiles.checkRange(p);
    }
    Outcomes outcomes = Outcomes.of(records);
    List<RequestRecord> ok = outcomes.ok();
    int completed = ok.size();
    Tokens tokens = Tokens.of(ok);
    double durationS =
        records.isEmpty()
            ? 0.0
            : Math.max(0L, outcomes.lastEndMs() - outcomes.firstStartMs()) / 1000.0;
    Latencies latencies = Latencies.of(ok, percentiles);
    return new ServingMetrics(
        completed,
        outcomes.failed(),
        maxConcurrency,
        durationS,
        tokens.input(),
        tokens.output(),
        perSecond(completed, durationS),
        perSecond(tokens.output(), durationS),
        perSecond(tokens.input() + tokens.output(), durationS),
        peakOutputTokensPerSecond(ok),
        peakConcurrentRequests(records),
        latencies.ttft(),
        latencies.tpot(),
        latencies.itl(),
        latencies.e2el(),
        tokens.estimated(),
        shown,
        outcomes.cancelled(),
        outcomes.figures());
  }

  /**
   * How the requests ended, and when the first started and the last ended.
   *
   * @param ok the completed requests, in record order
   * @param failed how many failed
   * @param cancelled how many were cancelled (neither completed nor failed)
   * @param figures {@link Figures#POOLED} when there were requests and all were pooling requests
   */
  private record Outcomes(
      List<RequestRecord> ok,
      int failed,
      int cancelled,
      long firstStartMs,
      long lastEndMs,
      Figures figures) {

    static Outcomes of(Collection<RequestRecord> records) {
      int failed = 0;
      int cancelled = 0;
      long minStart = Long.MAX_VALUE;
      long maxEnd = Long.MIN_VALUE;
      boolean pooling = !records.isEmpty();
      List<RequestRecord> ok = new ArrayList<>();
      for (RequestRecord r : records) {
        minStart = Math.min(minStart, r.startMs());
        maxEnd = Math.max(maxEnd, r.endMs());
        pooling &= r.figures() == Figures.POOLED;
        if (r.cancelled()) {
          cancelled++;
        } else if (!r.ok()) {
          failed++;
        } else {
          ok.add(r);
        }
      }
      return new Outcomes(
          ok, failed, cancelled, minStart, maxEnd, pooling ? Figures.POOLED : Figures.GENERATED);
    }
  }

  /**
   * The completed requests' tokens.
   *
   * @param input input tokens (null counts 0)
   * @param output output tokens (null counts 0)
   * @param estimated how many requests' output tokens were estimated
   */
  private record Tokens(long input, long output, int estimated) {

    static Tokens of(List<RequestRecord> ok) {
      long totalInput = 0;
      long totalOutput = 0;
      int estimated = 0;
      for (RequestRecord r : ok) {
        totalInput += r.inputTokens() == null ? 0 : r.inputTokens();
        totalOutput += r.outputTokens() == null ? 0 : r.outputTokens();
        if (r.outputTokensEstimated()) {
          estimated++;
        }
      }
      return new Tokens(totalInput, totalOutput, estimated);
    }
  }

  /** The completed requests' latency statistics. */
  private record Latencies(
      LatencyStats ttft, LatencyStats tpot, LatencyStats itl, LatencyStats e2el) {

    /** Per-request values in primitive arrays, the ITLs (one per chunk) in an exact histogram. */
    static Latencies of(List<RequestRecord> ok, List<Double> percentiles) {
      double[] ttfts = new double[ok.size()];
      double[] tpots = new double[ttfts.length];
      double[] e2els = new double[ttfts.length];
      int nTtft = 0;
      int nTpot = 0;
      int nE2el = 0;
      MicrosHistogram itls = new MicrosHistogram();
      for (RequestRecord r : ok) {
        if (r.ttftMicros() != RequestRecord.ABSENT) {
          ttfts[nTtft++] = r.ttftMicros() / 1000.0;
        }
        if (r.tpotMicros() != RequestRecord.ABSENT) {
          tpots[nTpot++] = r.tpotMicros() / 1000.0;
        }
        if (r.e2elMicros() != RequestRecord.ABSENT) {
          e2els[nE2el++] = r.e2elMicros() / 1000.0;
        }
        itls.addAll(r.itlMs());
      }
      return new Latencies(
          LatencyStats.of(ttfts, nTtft, percentiles),
          LatencyStats.of(tpots, nTpot, percentiles),
          itls.stats(percentiles),
          LatencyStats.of(e2els, nE2el, percentiles));
    }
  }

  /**
   * Metrics per level, in the order the levels started (earliest {@code start_ms} first).
   *
   * @param maxConcurrencyByLevel configured concurrency per level; a level missing from it gets
   *     null
   */
  public static Map<String, ServingMetrics> computeByLevel(
      Collection<RequestRecord> records,
      Map<String, Integer> maxConcurrencyByLevel,
      List<Double> percentiles) {
    Map<String, ServingMetrics> out = new LinkedHashMap<>();
    byLevel(records)
        .forEach(
            (level, recs) ->
                out.put(level, compute(recs, maxConcurrencyByLevel.get(level), percentiles)));
    return out;
  }

  /**
   * The records grouped by level, levels ordered by their earliest {@code start_ms} (ties by name);
   * a null level is grouped under {@code ""}. Record order within a level is kept.
   */
  public static Map<String, List<RequestRecord>> byLevel(Collection<RequestRecord> records) {
    Map<String, List<RequestRecord>> groups = new HashMap<>();
    Map<String, Long> firstStart = new HashMap<>();
    for (RequestRecord r : records) {
      String level = r.level() == null ? "" : r.level();
      groups.computeIfAbsent(level, k -> new ArrayList<>()).add(r);
      firstStart.merge(level, r.startMs(), Math::min);
    }
    List<String> order = new ArrayList<>(groups.keySet());
    order.sort(
        Comparator.comparing((String l) -> firstStart.get(l))
            .thenComparing(Comparator.naturalOrder()));
    Map<String, List<RequestRecord>> out = new LinkedHashMap<>();
    for (String level : order) {
      out.put(level, List.copyOf(groups.get(level)));
    }
    return out;
  }

  /**
   * Peak output tokens in one 1-second bucket, over completed requests (see the class comment).
   * Buckets count from the earliest start among the given requests; a chunk arriving exactly 1000
   * ms after that start falls in the second bucket.
   */
  public static double peakOutputTokensPerSecond(Collection<RequestRecord> completed) {
    long origin = Long.MAX_VALUE;
    for (RequestRecord r : completed) {
      origin = Math.min(origin, r.startMs());
    }
    return TokenArrivals.perSecond(completed, origin, false).maxFromZero();
  }

  /**
   * Exact peak number of requests in flight over the half-open intervals [start_ms, end_ms) of the
   * given records (ok and failed alike): a sweep where, at equal times, ends come before starts.
   * Empty intervals (end <= start) never count.
   */
  public static int peakConcurrentRequests(Collection<RequestRecord> records) {
    long[] events = SteadyState.sortedEvents(records);
    int current = 0;
    int peak = 0;
    for (long e : events) {
      current += SteadyState.isStart(e) ? 1 : -1;
      peak = Math.max(peak, current);
    }
    return peak;
  }

  /**
   * The mean number of requests in flight from the first send to the last end: the time the
   * requests spent in flight over that span (Little's law); NaN for an empty span.
   */
  public static double meanInFlight(Collection<RequestRecord> records) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long busy = 0;
    for (RequestRecord r : records) {
      first = Math.min(first, r.startMs());
      last = Math.max(last, r.endMs());
      busy += Math.max(0, r.endMs() - r.startMs());
    }
    return last > first ? busy / (double) (last - first) : Double.NaN;
  }

  private static double perSecond(double amount, double durationS) {
    return durationS > 0.0 ? amount / durationS : 0.0;
  }
}
