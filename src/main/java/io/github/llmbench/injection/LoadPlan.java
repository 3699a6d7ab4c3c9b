package io.github.llmbench.injection;

import io.github.llmbench.settings.BenchSettings;
import java.util.ArrayList;
import java.util.List;
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
    return "r" + BenchSettings.plainNumber(rate);
  }

  /**
   * A trace replay: the warmup, then one phase sending each request at its time.
   *
   * @param sendTimes each request's send time, in s from the replay's start, in order
   */
  public static List<Phase> trace(BenchSettings.Load load, List<Double> sendTimes) {
    List<Phase> phases = new ArrayList<>(warmup(load, BenchSettings.Injector.ALONE));
    double span = sendTimes.get(sendTimes.size() - 1);
    int n = sendTimes.size();
    phases.add(new Phase(TRACE, null, 0, OptionalInt.of(n), (int) Math.ceil(span), n / Math.max(span, 1e-3), 1.0,
        false, true, List.copyOf(sendTimes)));
    return phases;
  }

  /**
   * A capacity search's phases: the warmup only. Its probes are chosen as it runs, so no level is
   * planned (a planned level would get Gatling assertions and a hard stop of its own).
   */
  public static List<Phase> search(BenchSettings.Load load) {
    return warmup(load, BenchSettings.Injector.ALONE);
  }

  /**
   * The run's hard stop: every phase's own limit (a count of requests at most {@code timeout}
   * each per slot in flight), plus time for its last requests to time out; a search's budget
   * likewise (a probe is started only when it ends within it).
   *
   * @param searchBudgetSeconds the capacity search's budget, 0 for none
   */
  public static java.time.Duration maxDuration(List<Phase> phases, int timeoutSeconds, long searchBudgetSeconds) {
    long seconds = 0;
    for (Phase p : phases) {
      if (p.trace()) {
        seconds += p.durationSeconds();
      } else if (p.prompts().isPresent()) {
        int inFlight = p.conc() > 0 ? p.conc() : 1;
        seconds += (long) Math.ceil((double) p.prompts().getAsInt() / inFlight) * timeoutSeconds;
      } else {
        seconds += p.durationSeconds();
      }
      seconds += timeoutSeconds + 10L;
    }
    if (searchBudgetSeconds > 0) {
      seconds += searchBudgetSeconds + timeoutSeconds + 10L;
    }
    return java.time.Duration.ofSeconds(seconds + 30);
  }

  /** The warmup phase (this injector's share of it), or none. */
  private static List<Phase> warmup(BenchSettings.Load load, BenchSettings.Injector injector) {
    return load.warmupPrompts() == 0 ? List.of()
        : List.of(new Phase(WARMUP, null, injector.share(load.warmupConc()), OptionalInt.of(injector.share(load.warmupPrompts())),
            0, 0, 0, true, true));
  }

  /**
   * When each phase waits to start: with {@code -Dstart.at}, injectors sharing several stages
   * (a warmup, a ladder) follow one {@link #timeline}; otherwise only the first phase waits for the
   * instant, and the others follow as the one before drains. Empty for a phase that does not wait.
   */
  public static List<java.util.OptionalLong> starts(List<Phase> phases, BenchSettings.Injector injector, int durationSeconds) {
    List<java.util.OptionalLong> none = new ArrayList<>(java.util.Collections.nCopies(phases.size(), java.util.OptionalLong.empty()));
    if (injector.startAtMs().isEmpty() || phases.isEmpty()) {
      return none;
    }
    if (injector.sharded() && phases.stream().map(Phase::level).distinct().count() > 1) {
      return timeline(phases, injector.startAtMs().getAsLong(), durationSeconds, injector.drainSeconds());
    }
    none.set(0, injector.startAtMs());
    return none;
  }

  /**
   * When each phase starts on a timeline shared by injectors that cannot wait for one another:
   * the first phase at {@code startAtMs}; after a warmup, {@code drain} seconds; after a level,
   * its duration plus {@code drain} seconds. Phases of one level (profiles in order) follow each
   * other as they drain. Empty for a phase that starts when the one before it has drained.
   */
  public static List<java.util.OptionalLong> timeline(List<Phase> phases, long startAtMs, int durationSeconds, int drainSeconds) {
    List<java.util.OptionalLong> out = new ArrayList<>();
    long at = startAtMs;
    String previousLevel = null;
    for (int i = 0; i < phases.size(); i++) {
      Phase p = phases.get(i);
      boolean stageStart = i == 0 || !p.level().equals(previousLevel);
      if (stageStart && i > 0) {
        at += 1000L * ((phases.get(i - 1).warmup() ? 0 : durationSeconds) + drainSeconds);
      }
      out.add(stageStart ? java.util.OptionalLong.of(at) : java.util.OptionalLong.empty());
      previousLevel = p.level();
    }
    return out;
  }

  /**
   * @param profiles the profiles to send one after another within each level, or an empty list
   *     when requests do not run by profile (or profiles are mixed)
   */
  public static List<Phase> of(BenchSettings.Load load, List<String> profiles) {
    return of(load, profiles, BenchSettings.Injector.ALONE);
  }

  /**
   * The phases of one injector of several: its share of each level's concurrency and prompts
   * (shares differ by at most one), of an open model's rate; the levels keep the whole load's
   * names ({@code c128} on every injector), so their records merge into one level.
   */
  public static List<Phase> of(BenchSettings.Load load, List<String> profiles, BenchSettings.Injector injector) {
    List<Phase> phases = new ArrayList<>(warmup(load, injector));
    java.util.function.Function<OptionalInt, OptionalInt> sharePrompts =
        p -> p.isPresent() ? OptionalInt.of(injector.share(p.getAsInt())) : p;
    List<String> split = profiles.isEmpty() ? java.util.Collections.singletonList(null) : profiles;
    if (load.open()) {
      String level = openLevel(load.rate().getAsDouble());
      for (int p = 0; p < split.size(); p++) {
        phases.add(
            new Phase(level, split.get(p), load.maxConc().isPresent() ? Math.max(1, injector.share(load.maxConc().getAsInt())) : 0, sharePrompts.apply(load.promptsOf(0)),
                load.durationSeconds(), load.rate().getAsDouble() / injector.count(), load.burstiness(), false, p == split.size() - 1));
      }
      return phases;
    }
    for (int i = 0; i < load.levels().size(); i++) {
      int conc = load.levels().get(i);
      for (int p = 0; p < split.size(); p++) {
        phases.add(
            new Phase(closedLevel(conc), split.get(p), injector.share(conc), sharePrompts.apply(load.promptsOf(i)),
                load.durationSeconds(), 0, 0, false, p == split.size() - 1));
      }
    }
    return phases;
  }
}
