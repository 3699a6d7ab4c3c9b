package io.github.llmbench.gates;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gates of a run, parsed from {@code gate.*} properties and an optional gates file (same keys
 * without the {@code gate.} prefix), with the goodput objectives ({@code gate.goodput=ttft:500
 * tpot:50}). Pure: the caller reads files and properties.
 */
public record GateSet(List<Gate> gates, Optional<GoodputSpec> goodput) {

  /** Metrics a gate may name, each with its comparison. */
  public static final Set<String> METRICS = metrics();

  /** Gates on the server's figures: {@code server.preemptions}, {@code server.waiting_mean}, ... */
  public static final String SERVER_PREFIX = "server.";

  /** The gate on a search's capacity at SLO ({@code -Dsearch}): the highest load that met the objectives. */
  public static final String CAPACITY = "capacity.min";

  private static final Pattern KEY = Pattern.compile("^(?:(c\\d+|r[0-9.]+)\\.)?(.+)$");

  public GateSet {
    gates = List.copyOf(gates);
  }

  public static GateSet none() {
    return new GateSet(List.of(), Optional.empty());
  }

  public boolean isEmpty() {
    return gates.isEmpty();
  }

  private static Set<String> metrics() {
    Set<String> m = new java.util.LinkedHashSet<>();
    for (String metric : List.of("ttft", "tpot", "itl", "e2el")) {
      for (String stat : List.of("mean", "median", "p90", "p99")) {
        m.add(metric + "." + stat);
      }
    }
    m.add("failed.pct");
    m.add("output_throughput.min");
    m.add("steady.output_throughput.min");
    m.add("goodput.min");
    m.add("goodput.pct");
    m.add(CAPACITY);
    // the server's own figures over the level (its /metrics): every one is an upper bound
    for (String figure : io.github.llmbench.analysis.ServerFigures.NAMES) {
      m.add(SERVER_PREFIX + figure);
    }
    return Set.copyOf(m);
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
    for (Map.Entry<String, String> e : entries.entrySet()) {
      String key = e.getKey().trim();
      String value = e.getValue() == null ? "" : e.getValue().trim();
      if (key.equals("goodput")) {
        goodput = Optional.of(GoodputSpec.parse(value, source + "goodput"));
        continue;
      }
      Matcher m = KEY.matcher(key);
      if (!m.matches() || !METRICS.contains(m.group(2))) {
        throw new IllegalArgumentException(
            "Unknown gate " + source + key + "=" + value + ": expected [LEVEL.]METRIC with METRIC one of "
                + String.join(", ", new java.util.TreeSet<>(METRICS)) + ", or goodput");
      }
      Gate.Limit limit;
      try {
        limit = Gate.Limit.parse(value);
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException(
            "Invalid gate " + source + key + "=" + value + ": expected a number, or a change from the baseline like +10%");
      }
      gates.add(new Gate(m.group(1), m.group(2), limit));
    }
    boolean needsGoodput = gates.stream().anyMatch(g -> g.metric().startsWith("goodput"));
    if (needsGoodput && goodput.isEmpty()) {
      throw new IllegalArgumentException(
          "Gate " + source + "goodput.* needs the objectives: " + source + "goodput=ttft:MS tpot:MS e2el:MS");
    }
    gates.sort(java.util.Comparator.comparing(Gate::name));
    return new GateSet(gates, goodput);
  }

  /**
   * The gate every run has unless one on {@code failed.pct} is given: at most 1% of a level's
   * requests may fail, and a level with no request completed fails too ({@code
   * -Dgate.failed.pct=100} lifts it). A run whose requests all failed measured nothing, and must
   * not end with status 0.
   */
  public static final double DEFAULT_FAILED_PCT = 1;

  /** These gates, plus {@link #DEFAULT_FAILED_PCT} when none of them is on {@code failed.pct}. */
  public GateSet withDefaultFailedPct() {
    if (gates.stream().anyMatch(g -> g.metric().equals("failed.pct"))) {
      return this;
    }
    List<Gate> all = new ArrayList<>(gates);
    all.add(new Gate(null, "failed.pct", new Gate.Limit(DEFAULT_FAILED_PCT, false), true));
    all.sort(java.util.Comparator.comparing(Gate::name));
    return new GateSet(all, goodput);
  }

  /** Whether a gate needs a baseline run to be measured against. */
  public boolean needsBaseline() {
    return gates.stream().anyMatch(g -> g.limit().relative());
  }
}
