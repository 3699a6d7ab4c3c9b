package io.github.llmbench.gates;

import io.github.llmbench.analysis.GateDesign;
import io.github.llmbench.core.Level;
import io.github.llmbench.settings.GateSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The gates of a run, parsed from {@code gate.*} properties and an optional gates file (same keys
 * without the {@code gate.} prefix), with the goodput objectives ({@code gate.goodput=ttft:500
 * tpot:50}). Pure: the caller reads files and properties.
 */
public record GateSet(List<Gate> gates, Optional<GoodputSpec> goodput, Judging judging) {

  /** {@code gate.confidence}: how sure a verdict on a figure with an interval must be. */
  public static final String CONFIDENCE_KEY = "confidence";

  /** {@code gate.inconclusive}: what a verdict the data cannot resolve does to the exit status. */
  public static final String INCONCLUSIVE_KEY = "inconclusive";

  /**
   * How gates judge a figure that has an interval (across trials, or within the run).
   *
   * @param confidence one-sided: a gate fails when the figure is beyond its limit with this
   *     confidence, passes when within it with this confidence, else is inconclusive
   * @param inconclusivePasses whether an inconclusive gate passes ({@code -Dgate.inconclusive})
   * @param power the chance a relative gate must fail a change of its threshold ({@code
   *     -Dgate.power})
   * @param bonferroni whether each of the run's k gates x levels is judged at false alarm {@code (1
   *     - confidence) / k} ({@code -Dgate.family=bonferroni})
   */
  public record Judging(
      double confidence, boolean inconclusivePasses, double power, boolean bonferroni) {
    public static final Judging DEFAULT =
        new Judging(0.95, true, GateSettings.DEFAULT_POWER, false);

    /** The two error rates a relative gate is judged at, with this per-gate confidence. */
    public GateDesign.ErrorRates rates(double perGateConfidence) {
      return GateDesign.ErrorRates.of(perGateConfidence, power);
    }
  }

  public GateSet {
    gates = List.copyOf(gates);
  }

  public GateSet(List<Gate> gates, Optional<GoodputSpec> goodput) {
    this(gates, goodput, Judging.DEFAULT);
  }

  public static GateSet none() {
    return new GateSet(List.of(), Optional.empty());
  }

  public boolean isEmpty() {
    return gates.isEmpty();
  }

  /**
   * Parses gate entries.
   *
   * @param entries key (without {@code gate.}) to raw value, e.g. {@code tpot.p99 -> 300}, {@code
   *     c128.failed.pct -> 1}, {@code goodput -> ttft:500 tpot:50}
   * @param source where they came from, for error messages ({@code -Dgate.} or the file name)
   * @throws IllegalArgumentException one line naming the gate, its value and what is accepted
   */
  public static GateSet parse(Map<String, String> entries, String source) {
    List<Gate> gates = new ArrayList<>();
    Optional<GoodputSpec> goodput = Optional.empty();
    double confidence = Judging.DEFAULT.confidence();
    boolean inconclusivePasses = Judging.DEFAULT.inconclusivePasses();
    double power = Judging.DEFAULT.power();
    boolean bonferroni = Judging.DEFAULT.bonferroni();
    for (Map.Entry<String, String> e : entries.entrySet()) {
      String key = e.getKey().trim();
      String value = e.getValue() == null ? "" : e.getValue().trim();
      if (key.equals(GoodputSpec.KEY)) {
        goodput = Optional.of(GoodputSpec.parse(value, source + GoodputSpec.KEY));
        continue;
      }
      if (key.equals(CONFIDENCE_KEY)) {
        confidence = confidence(value, source + key);
        continue;
      }
      if (key.equals(GateSettings.POWER_KEY)) {
        power = GateSettings.power(value, source + key);
        continue;
      }
      if (key.equals(GateSettings.FAMILY_KEY)) {
        bonferroni = GateSettings.bonferroni(value, source + key);
        continue;
      }
      if (key.equals(INCONCLUSIVE_KEY)) {
        if (!value.equals("pass") && !value.equals("fail")) {
          throw new IllegalArgumentException(
              "Invalid gate " + source + key + "=" + value + ": expected pass or fail");
        }
        inconclusivePasses = value.equals("pass");
        continue;
      }
      Key named = key(key, source + key + "=" + value);
      try {
        gates.add(new Gate(named.level(), named.metric(), Gate.Limit.parse(value)));
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException(
            "Invalid gate "
                + source
                + key
                + "="
                + value
                + ": expected a number, or a change from the baseline like +10%");
      }
    }
    if (goodput.isEmpty() && gates.stream().anyMatch(g -> g.metric().needsGoodput())) {
      throw new IllegalArgumentException(
          "Gate "
              + source
              + GoodputSpec.KEY
              + ".* needs the objectives: "
              + source
              + GoodputSpec.KEY
              + "="
              + GoodputSpec.PLACEHOLDER);
    }
    gates.sort(Comparator.comparing(Gate::name));
    return new GateSet(
        gates, goodput, new Judging(confidence, inconclusivePasses, power, bonferroni));
  }

  private static double confidence(String value, String name) {
    try {
      double c = Double.parseDouble(value);
      if (c > 0.5 && c < 1) {
        return c;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException(
        "Invalid gate " + name + "=" + value + ": expected a number between 0.5 and 1, e.g. 0.95");
  }

  /** What a gate's key names: its level (null for every level) and metric. */
  private record Key(Level level, GateMetric metric) {}

  /**
   * The gate named {@code key}: {@code [LEVEL.]METRIC}, LEVEL a measured level's tag ({@code c128},
   * {@code r2.5}, {@code trace}: a rate's tag holds a dot itself).
   *
   * @param given the gate as given, for error messages ({@code -Dgate.tpot.p95=3})
   */
  private static Key key(String key, String given) {
    Optional<GateMetric> whole = GateMetric.parse(key);
    if (whole.isPresent()) {
      return new Key(null, whole.get());
    }
    boolean metricAfterALevel = false;
    for (int dot = key.indexOf('.'); dot > 0; dot = key.indexOf('.', dot + 1)) {
      Optional<GateMetric> metric = GateMetric.parse(key.substring(dot + 1));
      if (metric.isPresent()) {
        Optional<Level> level = Level.parse(key.substring(0, dot)).filter(Level::measured);
        if (level.isPresent()) {
          return new Key(level.get(), metric.get());
        }
        metricAfterALevel = true;
      }
    }
    if (metricAfterALevel) {
      throw new IllegalArgumentException(
          "Unknown gate "
              + given
              + ": expected [LEVEL.]METRIC with LEVEL a measured level: "
              + MEASURED_LEVELS);
    }
    throw new IllegalArgumentException(
        "Unknown gate "
            + given
            + ": expected [LEVEL.]METRIC with METRIC one of "
            + String.join(", ", GateMetric.all().stream().map(GateMetric::key).toList())
            + ", another percentile of a latency (METRIC.pN with N above 0 and below 100:"
            + " ttft.p95, itl.p99.9), or "
            + GoodputSpec.KEY);
  }

  /** The levels a gate may name (the warmup is not measured). */
  private static final String MEASURED_LEVELS =
      "cN (closed model at concurrency N), rR (open model at R requests/s) or " + Level.TRACE.tag();

  /**
   * The gate every run has unless one on {@code failed.pct} is given: at most 1% of a level's
   * requests may fail, and a level with no request completed fails too ({@code
   * -Dgate.failed.pct=100} lifts it). A run whose requests all failed measured nothing, and must
   * not end with status 0.
   */
  public static final double DEFAULT_FAILED_PCT = GateSettings.DEFAULT_FAILED_PCT;

  /** These gates, plus {@link #DEFAULT_FAILED_PCT} when none of them is on {@code failed.pct}. */
  public GateSet withDefaultFailedPct() {
    if (gates.stream().anyMatch(g -> g.metric() == GateMetric.FAILED_PCT)) {
      return this;
    }
    List<Gate> all = new ArrayList<>(gates);
    all.add(new Gate(null, GateMetric.FAILED_PCT, new Gate.Limit(DEFAULT_FAILED_PCT, false), true));
    all.sort(Comparator.comparing(Gate::name));
    return new GateSet(all, goodput, judging);
  }

  /**
   * The percentiles its latency gates name ({@code itl.p99.9}: 99.9), which the run computes
   * whether {@code -Dpercentiles} shows them or not.
   */
  public List<Double> percentiles() {
    return gates.stream()
        .map(Gate::metric)
        .flatMap(
            m ->
                m instanceof GateMetric.Latency l && l.figure().statistic().isPercentile()
                    ? Stream.of(l.figure().statistic().percentile())
                    : Stream.empty())
        .distinct()
        .toList();
  }

  /** Whether a gate needs a baseline run to be measured against. */
  public boolean needsBaseline() {
    return gates.stream().anyMatch(g -> g.limit().relative());
  }
}
