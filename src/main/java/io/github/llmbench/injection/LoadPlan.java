package io.github.llmbench.injection;

import io.github.llmbench.settings.BenchSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The run's phases, in order, from the settings: the warmup, then each ladder level (or the one
 * open-model phase), each level split into one phase per profile when profiles run in order.
 */
public final class LoadPlan {
  public static final String WARMUP = "warmup";

  /** The level tag of a trace replay. */
  public static final String TRACE = "trace";

  private LoadPlan() {}

  /** The level tag of a closed-model level: records read {@code c128 / TTFT}. */
  public static String closedLevel(int conc) {
    return "c" + conc;
  }

  /** The level tag of an open-model phase, e.g. {@code r2.5}. */
  public static String openLevel(double rate) {
    String r = String.format(Locale.ROOT, "%s", rate);
    return "r" + (r.endsWith(".0") ? r.substring(0, r.length() - 2) : r);
  }

  /**
   * A trace replay: the warmup, then one phase sending each request at its time.
   *
   * @param sendTimes each request's send time, in s from the replay's start, in order
   */
  public static List<Phase> trace(BenchSettings.Load load, List<Double> sendTimes) {
    List<Phase> phases = new ArrayList<>(of(load, List.of()).stream().filter(Phase::warmup).toList());
    double span = sendTimes.get(sendTimes.size() - 1);
    int n = sendTimes.size();
    phases.add(new Phase(TRACE, null, 0, OptionalInt.of(n), (int) Math.ceil(span), n / Math.max(span, 1e-3), 1.0,
        false, true, List.copyOf(sendTimes)));
    return phases;
  }

  /**
   * @param profiles the profiles to send one after another within each level, or an empty list
   *     when requests do not run by profile (or profiles are mixed)
   */
  public static List<Phase> of(BenchSettings.Load load, List<String> profiles) {
    List<Phase> phases = new ArrayList<>();
    if (load.warmupPrompts() > 0) {
      phases.add(
          new Phase(WARMUP, null, load.warmupConc(), OptionalInt.of(load.warmupPrompts()), 0, 0, 0, true, true));
    }
    List<String> split = profiles.isEmpty() ? java.util.Collections.singletonList(null) : profiles;
    if (load.open()) {
      String level = openLevel(load.rate().getAsDouble());
      for (int p = 0; p < split.size(); p++) {
        phases.add(
            new Phase(level, split.get(p), load.maxConc().orElse(0), load.promptsOf(0), load.durationSeconds(),
                load.rate().getAsDouble(), load.burstiness(), false, p == split.size() - 1));
      }
      return phases;
    }
    for (int i = 0; i < load.levels().size(); i++) {
      int conc = load.levels().get(i);
      for (int p = 0; p < split.size(); p++) {
        phases.add(
            new Phase(closedLevel(conc), split.get(p), conc, load.promptsOf(i), load.durationSeconds(), 0, 0,
                false, p == split.size() - 1));
      }
    }
    return phases;
  }
}
