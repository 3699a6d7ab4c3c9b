package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The trials of a level that ran several times back to back ({@code -Dtrials}): each trial's own
 * serving figures and steady window, and the level's figures over all of them. The level's
 * latencies pool every trial's requests; its durations and throughputs add the trials' own (the
 * gaps between trials are no load); its steady window is the median trial's by steady output
 * throughput, so a ladder's knee and roofline read a window that happened.
 *
 * @param trials each trial's figures, by trial number
 */
public record Trials(List<Trial> trials) {

  /** A level that ran once. */
  public static final Trials NONE = new Trials(List.of());

  /**
   * One trial of a level.
   *
   * @param number from 1
   */
  public record Trial(int number, ServingMetrics serving, SteadyState steady) {}

  public Trials {
    trials = List.copyOf(trials);
  }

  public boolean isEmpty() {
    return trials.isEmpty();
  }

  public int count() {
    return trials.size();
  }

  /**
   * The trials of a level's records, by the trial their origin names; {@link #NONE} when they name
   * none or one.
   */
  public static Trials of(Collection<RequestRecord> levelRecords, Integer concurrency) {
    return of(levelRecords, concurrency, ReportedPercentiles.DEFAULT);
  }

  /** As {@link #of(Collection, Integer)}, each trial's latencies with these percentiles. */
  public static Trials of(
      Collection<RequestRecord> levelRecords,
      Integer concurrency,
      ReportedPercentiles percentiles) {
    Map<Integer, List<RequestRecord>> byTrial = new TreeMap<>();
    for (RequestRecord r : levelRecords) {
      byTrial.computeIfAbsent(RequestOrigin.trialOf(r.origin()), k -> new ArrayList<>()).add(r);
    }
    if (byTrial.size() < 2 || byTrial.containsKey(0)) {
      return NONE;
    }
    List<Trial> out = new ArrayList<>();
    byTrial.forEach(
        (n, recs) ->
            out.add(
                new Trial(
                    n,
                    ServingMetricsCalculator.compute(recs, concurrency, percentiles),
                    SteadyState.compute(recs, concurrency, percentiles.computed()))));
    return new Trials(out);
  }

  /**
   * The level's serving figures: the latencies of every trial's requests pooled (as {@code
   * pooled}), the counts and tokens added up, the durations added (the gaps between trials are not
   * load) and the throughputs over that sum, the peaks the highest trial's.
   */
  public ServingMetrics level(ServingMetrics pooled) {
    if (isEmpty()) {
      return pooled;
    }
    double duration = 0;
    double maxOutputPerS = 0;
    int maxConcurrent = 0;
    for (Trial t : trials) {
      duration += t.serving().durationS();
      maxOutputPerS = Math.max(maxOutputPerS, t.serving().maxOutputTokensPerS());
      maxConcurrent = Math.max(maxConcurrent, t.serving().maxConcurrentRequests());
    }
    double perS = duration > 0 ? 1 / duration : 0;
    return new ServingMetrics(
        pooled.completed(),
        pooled.failed(),
        pooled.maxConcurrency(),
        duration,
        pooled.totalInputTokens(),
        pooled.totalOutputTokens(),
        pooled.completed() * perS,
        pooled.totalOutputTokens() * perS,
        (pooled.totalInputTokens() + pooled.totalOutputTokens()) * perS,
        maxOutputPerS,
        maxConcurrent,
        pooled.ttft(),
        pooled.tpot(),
        pooled.itl(),
        pooled.e2el(),
        pooled.outputTokensEstimatedCount(),
        pooled.percentiles(),
        pooled.cancelled(),
        pooled.endpointFigures());
  }

  /**
   * The level's steady window: the median trial's by steady output throughput (the lower middle one
   * of an even count); {@code pooled} when the level ran once.
   */
  public SteadyState steady(SteadyState pooled) {
    if (isEmpty()) {
      return pooled;
    }
    List<Trial> sorted = new ArrayList<>(trials);
    sorted.sort(Comparator.comparingDouble(t -> t.steady().outputThroughput()));
    return sorted.get((sorted.size() - 1) / 2).steady();
  }
}
