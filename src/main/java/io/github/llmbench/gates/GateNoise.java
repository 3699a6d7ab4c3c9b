package io.github.llmbench.gates;

import io.github.llmbench.analysis.Noise;
import java.util.Map;
import java.util.Optional;

/**
 * The noise a relative gate is judged with where it is known beyond the two runs' own trials
 * ({@code -Dhistory}: many runs of the same workload and testbed), by level and metric. {@link
 * #NONE} by default: the gates then use the runs' own trials.
 */
@FunctionalInterface
public interface GateNoise {

  /** The noise of {@code metric} at {@code level}, or empty where none is known. */
  Optional<Noise> of(String level, GateMetric metric);

  /** No noise known beyond the runs' own trials. */
  GateNoise NONE = (level, metric) -> Optional.empty();

  /** Noise by {@link #key} ({@code c8 tpot.mean}). */
  static GateNoise of(Map<String, Noise> byKey) {
    Map<String, Noise> copy = Map.copyOf(byKey);
    return (level, metric) -> Optional.ofNullable(copy.get(key(level, metric)));
  }

  /** {@code c8 tpot.mean}: a level's tag and a gate metric's key. */
  static String key(String level, GateMetric metric) {
    return level + " " + metric.key();
  }
}
