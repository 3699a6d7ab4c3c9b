package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The steady-state figures of one load level, as the seed's {@code Steady-State Metrics} block
 * defines them. Pure: no I/O, no clock. Built by {@link #compute}.
 *
 * <p>Definitions, over the records of ONE level (ok and failed), times in epoch ms:
 *
 * <ul>
 *   <li><b>threshold</b> = ceil(0.95 x C), C the configured concurrency (64 -> 61, 128 -> 122, 200
 *       -> 190, 1 -> 1), computed in integers.
 *   <li><b>in flight</b>: the number of requests whose half-open [start_ms, end_ms) holds the
 *       instant (all events at one millisecond are applied together, as in {@link
 *       ServingMetricsCalculator#peakConcurrentRequests}).
 *   <li><b>window</b> [ws, we]: ws = the first instant in flight reaches the threshold; we = the
 *       last instant it is still at or above it, i.e. the last time it drops below. Dips below the
 *       threshold inside the window do not end it. No window when the threshold is never reached.
 *   <li><b>started in window</b>: ws &lt;= start_ms &lt; we (ok and failed); <b>completed in
 *       window</b>: ok, started in the window and end_ms &lt;= we.
 *   <li><b>request throughput</b> = completed in window / window length (s).
 *   <li><b>output token throughput</b> = output tokens that ARRIVED in [ws, we] / length: each text
 *       chunk of a completed request (start + ttft, then + each ITL in turn) that arrives in the
 *       window, weighted by output_tokens / chunks of its request (as the peak output throughput
 *       does), whatever the request's start or end.
 *   <li><b>input token throughput</b> = input tokens of the requests started in the window (null
 *       counts 0) / length; <b>total</b> = output + input.
 *   <li><b>TTFT, TPOT</b> statistics over the requests completed in the window.
 *   <li><b>mean in flight</b> (the roofline's mean batch B) = time average of in flight over the
 *       window; <b>mean context</b> (the roofline's L) = mean of input + output / 2 tokens over the
 *       requests completed in the window (the context a decode step attends to, on average over a
 *       request's decode); <b>mean prompt</b> = mean input tokens of the requests started in it.
 *   <li><b>TTFT trend</b>: see {@link TtftTrend}.
 * </ul>
 *
 * @param concurrency the C the threshold is taken of
 * @param concurrencyObserved true when C was not configured and the observed peak stood in
 * @param threshold ceil(0.95 x C)
 * @param reached whether in flight ever reached the threshold (else all window figures are 0)
 * @param originMs the level's first start_ms: window times are printed relative to it
 * @param windowStartMs ws (epoch ms), 0 when not reached
 * @param windowEndMs we (epoch ms), 0 when not reached
 * @param observedPeak the exact peak of in flight over the level
 * @param requests all requests of the level
 * @param startedInWindow requests started in the window
 * @param completedInWindow requests started and completed in the window
 * @param requestThroughput req/s
 * @param outputThroughput tok/s
 * @param inputThroughput tok/s
 * @param totalThroughput tok/s
 * @param ttft over the requests completed in the window
 * @param tpot over the requests completed in the window (those with a TPOT)
 * @param meanInFlight time-averaged in flight over the window
 * @param meanContextTokens mean input + output / 2 over the completed-in-window requests
 * @param meanPromptTokens mean input tokens over the started-in-window requests
 * @param ttftTrend whether TTFT grows inside the window
 */
public record SteadyState(
    int concurrency,
    boolean concurrencyObserved,
    int threshold,
    boolean reached,
    long originMs,
    long windowStartMs,
    long windowEndMs,
    int observedPeak,
    int requests,
    int startedInWindow,
    int completedInWindow,
    double requestThroughput,
    double outputThroughput,
    double inputThroughput,
    double totalThroughput,
    LatencyStats ttft,
    LatencyStats tpot,
    double meanInFlight,
    double meanContextTokens,
    double meanPromptTokens,
    TtftTrend ttftTrend) {

  /** The seed's factor: the window is where in flight stays at or above 95% of C. */
  public static final int THRESHOLD_PERCENT = 95;

  /** Window length in seconds (0 when not reached). */
  public double windowS() {
    return (windowEndMs - windowStartMs) / 1000.0;
  }

  /** Window start in seconds from the level's first request start. */
  public double windowStartS() {
    return reached ? (windowStartMs - originMs) / 1000.0 : 0.0;
  }

  /** Window end in seconds from the level's first request start. */
  public double windowEndS() {
    return reached ? (windowEndMs - originMs) / 1000.0 : 0.0;
  }

  /** ceil(0.95 x C) in integer arithmetic: 64 -> 61, 128 -> 122, 200 -> 190, 1 -> 1. */
  public static int threshold(int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
    }
    return (int) ((THRESHOLD_PERCENT * (long) concurrency + 99) / 100);
  }

  /**
   * The steady state of one level.
   *
   * @param levelRecords the records of one level
   * @param concurrency the configured concurrency C; null or &lt; 1 when unknown: the observed peak
   *     stands in (flagged by {@link #concurrencyObserved()})
   */
  public static SteadyState compute(Collection<RequestRecord> levelRecords, Integer concurrency) {
    return compute(levelRecords, concurrency, LatencyStats.DEFAULT_PERCENTILES);
  }

  /** As {@link #compute(Collection, Integer)}, the latencies with these percentiles besides. */
  public static SteadyState compute(
      Collection<RequestRecord> levelRecords, Integer concurrency, List<Double> percentiles) {
    List<RequestRecord> records = new ArrayList<>(levelRecords);
    int peak = ServingMetricsCalculator.peakConcurrentRequests(records);
    boolean observed = concurrency == null || concurrency < 1;
    int c = observed ? Math.max(1, peak) : concurrency;
    int thr = threshold(c);
    long origin = records.stream().mapToLong(RequestRecord::startMs).min().orElse(0L);

    // in-flight step function: (time, count after all events at that time)
    Steps steps = inFlightSteps(records);
    Window window = Window.of(steps, thr);
    if (window == null) {
      return new SteadyState(
          c,
          observed,
          thr,
          false,
          origin,
          0L,
          0L,
          peak,
          records.size(),
          0,
          0,
          0,
          0,
          0,
          0,
          LatencyStats.EMPTY,
          LatencyStats.EMPTY,
          0,
          0,
          0,
          TtftTrend.NOT_EVALUATED);
    }
    long ws = window.startMs();
    long we = window.endMs();
    double lengthS = (we - ws) / 1000.0;
    StartedInWindow started = StartedInWindow.of(records, ws, we);
    CompletedLatencies latencies = CompletedLatencies.of(started.completed(), percentiles);
    double outputTokens = TokenArrivals.between(records, ws, we);

    double rt = perSecond(started.completed().size(), lengthS);
    double ot = perSecond(outputTokens, lengthS);
    double it = perSecond(started.inputTokens(), lengthS);
    return new SteadyState(
        c,
        observed,
        thr,
        true,
        origin,
        ws,
        we,
        peak,
        records.size(),
        started.count(),
        started.completed().size(),
        rt,
        ot,
        it,
        ot + it,
        latencies.ttft(),
        latencies.tpot(),
        meanInFlight(steps, ws, we),
        latencies.meanContextTokens(),
        started.meanPromptTokens(),
        TtftTrend.of(started.ok(), c));
  }

  /**
   * The steady window: from the first instant in flight reaches the threshold to the last instant
   * it drops below it.
   */
  private record Window(long startMs, long endMs) {

    /** The window of the steps, null when in flight never reaches the threshold and falls back. */
    static Window of(Steps steps, int threshold) {
      long ws = Long.MIN_VALUE;
      long we = Long.MIN_VALUE;
      int prev = 0;
      for (int i = 0; i < steps.size(); i++) {
        int now = steps.inFlight()[i];
        if (ws == Long.MIN_VALUE && now >= threshold) {
          ws = steps.timesMs()[i];
        }
        if (prev >= threshold && now < threshold) {
          we = steps.timesMs()[i];
        }
        prev = now;
      }
      return ws == Long.MIN_VALUE || we == Long.MIN_VALUE ? null : new Window(ws, we);
    }
  }

  /**
   * The requests started in the window.
   *
   * @param count how many (ok and failed)
   * @param inputTokens their input tokens (null counts 0)
   * @param ok those that completed, in record order
   * @param completed those of {@code ok} that also ended in the window
   */
  private record StartedInWindow(
      int count, long inputTokens, List<RequestRecord> ok, List<RequestRecord> completed) {

    static StartedInWindow of(List<RequestRecord> records, long ws, long we) {
      int started = 0;
      long inputTokens = 0;
      List<RequestRecord> completed = new ArrayList<>();
      List<RequestRecord> startedOk = new ArrayList<>();
      for (RequestRecord r : records) {
        if (r.startMs() >= ws && r.startMs() < we) {
          started++;
          inputTokens += r.inputTokens() == null ? 0 : r.inputTokens();
          if (r.ok()) {
            startedOk.add(r);
            if (r.endMs() <= we) {
              completed.add(r);
            }
          }
        }
      }
      return new StartedInWindow(started, inputTokens, startedOk, completed);
    }

    double meanPromptTokens() {
      return count == 0 ? 0.0 : inputTokens / (double) count;
    }
  }

  /**
   * The latencies and mean context of the requests completed in the window.
   *
   * @param ttft their TTFTs
   * @param tpot their TPOTs (of those that have one)
   * @param meanContextTokens their mean input + output / 2 tokens
   */
  private record CompletedLatencies(
      LatencyStats ttft, LatencyStats tpot, double meanContextTokens) {

    static CompletedLatencies of(List<RequestRecord> completed, List<Double> percentiles) {
      double[] ttfts = new double[completed.size()];
      double[] tpots = new double[completed.size()];
      int nTtft = 0;
      int nTpot = 0;
      double contextSum = 0;
      for (RequestRecord r : completed) {
        if (r.ttftMicros() != RequestRecord.ABSENT) {
          ttfts[nTtft++] = r.ttftMicros() / 1000.0;
        }
        if (r.tpotMicros() != RequestRecord.ABSENT) {
          tpots[nTpot++] = r.tpotMicros() / 1000.0;
        }
        contextSum += tokens(r.inputTokens()) + tokens(r.outputTokens()) / 2.0;
      }
      return new CompletedLatencies(
          LatencyStats.of(ttfts, nTtft, percentiles),
          LatencyStats.of(tpots, nTpot, percentiles),
          completed.isEmpty() ? 0.0 : contextSum / completed.size());
    }
  }

  /**
   * The in-flight step function of a set of records: from {@code timesMs[i]} on, {@code
   * inFlight[i]} requests are in flight, after applying all starts and ends at that millisecond;
   * times ascending. Two primitive arrays rather than a list of pairs: a million requests make two
   * million steps.
   *
   * @param timesMs epoch ms of each step
   * @param inFlight requests in flight from that time on
   */
  public record Steps(long[] timesMs, int[] inFlight) {
    public int size() {
      return timesMs.length;
    }
  }

  /** The in-flight step function of the records; empty intervals are left out. */
  public static Steps inFlightSteps(Collection<RequestRecord> records) {
    long[] events = sortedEvents(records);
    long[] times = new long[events.length];
    int[] counts = new int[events.length];
    int n = 0;
    int count = 0;
    int i = 0;
    while (i < events.length) {
      long t = events[i] >> 1;
      while (i < events.length && (events[i] >> 1) == t) {
        count += isStart(events[i]) ? 1 : -1;
        i++;
      }
      times[n] = t;
      counts[n++] = count;
    }
    return new Steps(Arrays.copyOf(times, n), Arrays.copyOf(counts, n));
  }

  /**
   * The starts and ends of the records' non-empty half-open intervals [start_ms, end_ms), each a
   * long {@code time * 2 + (1 for a start, 0 for an end)}, sorted: by time, and at equal times ends
   * before starts (a request ending at t and one starting at t do not overlap). One sort of
   * primitives instead of a sort of two million small arrays.
   */
  static long[] sortedEvents(Collection<RequestRecord> records) {
    long[] events = new long[records.size() * 2];
    int n = 0;
    for (RequestRecord r : records) {
      if (r.endMs() > r.startMs()) {
        events[n++] = (r.startMs() << 1) | 1;
        events[n++] = r.endMs() << 1;
      }
    }
    events = n == events.length ? events : Arrays.copyOf(events, n);
    Arrays.sort(events);
    return events;
  }

  static boolean isStart(long event) {
    return (event & 1) != 0;
  }

  private static double meanInFlight(Steps steps, long ws, long we) {
    if (we <= ws) {
      return 0.0;
    }
    long[] times = steps.timesMs();
    double area = 0;
    for (int i = 0; i < times.length; i++) {
      long from = Math.max(times[i], ws);
      long to = Math.min(i + 1 < times.length ? times[i + 1] : times[i], we);
      if (to > from) {
        area += steps.inFlight()[i] * (double) (to - from);
      }
    }
    return area / (we - ws);
  }

  private static double tokens(Integer n) {
    return n == null ? 0.0 : n;
  }

  private static double perSecond(double amount, double seconds) {
    return seconds > 0 ? amount / seconds : 0.0;
  }
}
