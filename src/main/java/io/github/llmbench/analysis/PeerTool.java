package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Another benchmarking tool whose definitions a run's records can be read under: each carries how
 * that tool computes its figures (which chunk ends TTFT, whether TPOT and ITL are per gap or per
 * request, what its percentiles are over, how it counts tokens, what its throughputs divide by) and
 * gives one level's figures as it would print them, beside the kit's own ({@code exec:java@report
 * ... --as vllm|aiperf|guidellm}, docs/metrics.md "Against the other tools").
 *
 * <p>Pure: the records in, the figures out. What the records cannot give back (a chunk the kit did
 * not keep, a tokenizer the kit did not run) is said in the figures' notes, never guessed.
 */
public sealed interface PeerTool permits VllmDefinitions, AiperfDefinitions, GuidellmDefinitions {

  /** The tools, in the order {@code --as} lists them. */
  static List<PeerTool> all() {
    return List.of(new VllmDefinitions(), new AiperfDefinitions(), new GuidellmDefinitions());
  }

  /** The tool of that name ({@link #name()}, any case); empty when none is. */
  static Optional<PeerTool> named(String name) {
    return all().stream().filter(t -> t.name().equalsIgnoreCase(name.strip())).findFirst();
  }

  /** The accepted names, for a bad argument's line: {@code vllm, aiperf or guidellm}. */
  static String names() {
    List<String> names = all().stream().map(PeerTool::name).toList();
    return names.subList(0, names.size() - 1).stream().collect(Collectors.joining(", "))
        + " or "
        + names.get(names.size() - 1);
  }

  /** The name {@code --as} takes: {@code vllm}, {@code aiperf}, {@code guidellm}. */
  String name();

  /** The level's figures as this tool would print them from the same records. */
  PeerFigures figures(Level level);

  /**
   * One level of a run.
   *
   * @param tag the level's tag ({@code ""} when the records have none)
   * @param records all its records, completed, failed and cancelled
   * @param maxConcurrency its configured concurrency; null when unknown or none
   * @param percentiles the percentiles the run printed ({@code -Dpercentiles}), in order; the tools
   *     with a fixed set ignore it
   */
  record Level(
      String tag, List<RequestRecord> records, Integer maxConcurrency, List<Double> percentiles) {

    public Level {
      tag = tag == null ? "" : tag;
      records = List.copyOf(records);
      percentiles = List.copyOf(percentiles);
    }

    /** Its completed requests, in record order. */
    public List<RequestRecord> completed() {
      return records.stream().filter(RequestRecord::ok).toList();
    }

    /** The kit's own figures of the level, with these extra percentiles besides the run's. */
    public ServingMetrics kit(List<Double> extraPercentiles) {
      return ServingMetricsCalculator.compute(
          records,
          maxConcurrency,
          ReportedPercentiles.of(Optional.of(percentiles), extraPercentiles));
    }

    /**
     * The mean number of its requests in flight: the time its requests spent in flight over the
     * span from the first send to the last end (Little's law), as GuideLLM's mean concurrency; 0
     * for an empty span.
     */
    public double meanInFlight() {
      double mean = ServingMetricsCalculator.meanInFlight(records);
      return Double.isNaN(mean) ? 0.0 : mean;
    }
  }
}
