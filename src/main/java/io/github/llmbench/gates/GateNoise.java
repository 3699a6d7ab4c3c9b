package io.github.llmbench.gates;

import io.github.llmbench.analysis.Noise;
import java.util.Map;
import java.util.Optional;

/**
 * The run-to-run noise a relative gate is judged with where it is known beyond the two runs' own
 * trials ({@code -Dhistory}: many runs of the same workload and testbed; {@code -Dgate.run.noise}:
 * declared), by level and metric. {@link #NONE} by default: the gates then use the runs' own
 * trials, and say that their error rates are unknown.
 */
@FunctionalInterface
public interface GateNoise {

  /** The noise of {@code metric} at {@code level}, or empty where none is known. */
  Optional<Noise> of(String level, GateMetric metric);

  /** No noise known beyond the runs' own trials. */
  GateNoise NONE = (level, metric) -> Optional.empty();

  /**
   * The run-to-run noise declared by {@code -Dgate.run.noise} for every level and figure ({@link
   * Noise#declared}): its trial part comes from the compared runs' trials.
   */
  static GateNoise declared(double runSd) {
    Noise n = Noise.declared(runSd);
    return (level, metric) -> Optional.of(n);
  }

  /** This noise where it is known, else {@code other}'s. */
  default GateNoise orElse(GateNoise other) {
    return (level, metric) -> of(level, metric).or(() -> other.of(level, metric));
  }

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
