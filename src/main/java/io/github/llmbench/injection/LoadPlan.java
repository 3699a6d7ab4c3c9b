package io.github.llmbench.injection;

import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.InjectorSettings;
import io.github.llmbench.settings.LoadSettings;
import io.github.llmbench.settings.SearchSettings;
import io.github.llmbench.workload.PreparedWorkload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The run's phases, in order, from the settings: the warmup, then each ladder level (or the one
 * open-model phase), each level split into one phase per profile when profiles run in order.
 */
public final class LoadPlan {
  private LoadPlan() {}

  /**
   * The planned levels the settings and the prepared workload describe: a trace's replay when the
   * dataset is a trace, else this injector's ladder or open-model phases. (A capacity search plans
   * its warmup alone, {@link #search}: the run's mode picks.)
   *
   * @param traceSendTimes the trace's send times ({@link PreparedWorkload#traceSendTimes()})
   * @param sequentialProfiles the profiles sent one after another within each level ({@link
   *     PreparedWorkload#sequentialProfiles()})
   */
  public static List<Phase> forRun(
      BenchSettings settings,
      Optional<List<Double>> traceSendTimes,
      List<String> sequentialProfiles) {
    if (traceSendTimes.isPresent()) {
      return trace(settings.load(), traceSendTimes.get());
    }
    return of(settings.load(), sequentialProfiles, settings.injector());
  }

  /** The measured levels' tags, in plan order, each once (a level split by profile is one). */
  public static List<String> measuredLevels(List<Phase> phases) {
    return phases.stream()
        .map(Phase::level)
        .filter(Level::measured)
        .map(Level::tag)
        .distinct()
        .toList();
  }

  /**
   * A trace replay: the warmup, then one phase sending each request at its time.
   *
   * @param sendTimes each request's send time, in s from the replay's start, in order
   */
  public static List<Phase> trace(LoadSettings load, List<Double> sendTimes) {
    List<Phase> phases = new ArrayList<>(warmup(load, InjectorSettings.ALONE));
    phases.add(new Phase.Trace(sendTimes));
    return phases;
  }

  /**
   * A capacity search's phases: the warmup only. Its probes are chosen as it runs, so no level is
   * planned (a planned level would get Gatling assertions and a hard stop of its own).
   */
  public static List<Phase> search(LoadSettings load) {
    return warmup(load, InjectorSettings.ALONE);
  }

  /**
   * The run's hard stop: every phase's own limit (a count of requests at most {@code timeout} each
   * per slot in flight), plus time for its last requests to time out; a search's budget likewise (a
   * probe is started only when it ends within it).
   *
   * @param searchBudgetSeconds the capacity search's budget, 0 for none
   */
  public static Duration maxDuration(
      List<Phase> phases, int timeoutSeconds, long searchBudgetSeconds) {
    long seconds = 0;
    for (Phase p : phases) {
      seconds +=
          p.<Long>match(
              closed ->
                  closed.prompts().isPresent()
                      ? byCountSeconds(closed.prompts().getAsInt(), closed.conc(), timeoutSeconds)
                      : closed.durationSeconds(),
              // uncapped: as if one at a time, which outlasts the arrivals of any rate above one
              // per timeout
              open ->
                  open.prompts().isPresent()
                      ? byCountSeconds(
                          open.prompts().getAsInt(), open.maxConc().orElse(1), timeoutSeconds)
                      : open.durationSeconds(),
              ramped ->
                  ramped.prompts().isPresent()
                      ? byCountSeconds(
                          ramped.prompts().getAsInt(), ramped.maxConc().orElse(1), timeoutSeconds)
                      : ramped.durationSeconds(),
              trace -> (long) trace.durationSeconds(),
              warmup -> byCountSeconds(warmup.promptCount(), warmup.conc(), timeoutSeconds));
      seconds += timeoutSeconds + 10L + p.trial().pauseBeforeSeconds();
    }
    if (searchBudgetSeconds > 0) {
      seconds += searchBudgetSeconds + timeoutSeconds + 10L;
    }
    return Duration.ofSeconds(seconds + 30);
  }

  /**
   * The most a count of requests takes, {@code inFlight} at a time, each at most {@code
   * timeoutSeconds}.
   */
  private static long byCountSeconds(int requests, int inFlight, int timeoutSeconds) {
    return (long) Math.ceil((double) requests / inFlight) * timeoutSeconds;
  }

  /** The warmup phase (this injector's share of it), or none. */
  private static List<Phase> warmup(LoadSettings load, InjectorSettings injector) {
    return load.warmupPrompts() == 0
        ? List.of()
        : List.of(
            new Phase.Warmup(
                injector.share(load.warmupConc()), injector.share(load.warmupPrompts())));
  }

  /**
   * When each phase waits to start: with {@code -Dstart.at}, injectors sharing several stages (a
   * warmup, a ladder) follow one {@link #timeline}; otherwise only the first phase waits for the
   * instant, and the others follow as the one before drains. Empty for a phase that does not wait.
   */
  public static List<OptionalLong> starts(
      List<Phase> phases, InjectorSettings injector, int durationSeconds) {
    List<OptionalLong> none =
        new ArrayList<>(Collections.nCopies(phases.size(), OptionalLong.empty()));
    if (injector.startAtMs().isEmpty() || phases.isEmpty()) {
      return none;
    }
    if (injector.sharded() && phases.stream().map(Phase::level).distinct().count() > 1) {
      return timeline(
          phases, injector.startAtMs().getAsLong(), durationSeconds, injector.drainSeconds());
    }
    none.set(0, injector.startAtMs());
    return none;
  }

  /**
   * When each phase starts on a timeline shared by injectors that cannot wait for one another: the
   * first phase at {@code startAtMs}; after a warmup, {@code drain} seconds; after a level, its
   * duration plus {@code drain} seconds. Phases of one level (profiles in order) follow each other
   * as they drain. Empty for a phase that starts when the one before it has drained.
   */
  public static List<OptionalLong> timeline(
      List<Phase> phases, long startAtMs, int durationSeconds, int drainSeconds) {
    List<OptionalLong> out = new ArrayList<>();
    long at = startAtMs;
    Level previousLevel = null;
    for (int i = 0; i < phases.size(); i++) {
      Phase p = phases.get(i);
      boolean stageStart = i == 0 || !p.level().equals(previousLevel);
      if (stageStart && i > 0) {
        // a warmup is a count of requests, over once they have drained: only the drain is waited
        at +=
            1000L
                * ((phases.get(i - 1) instanceof Phase.Warmup ? 0 : durationSeconds)
                    + drainSeconds);
      }
      out.add(stageStart ? OptionalLong.of(at) : OptionalLong.empty());
      previousLevel = p.level();
    }
    return out;
  }

  /**
   * @param profiles the profiles to send one after another within each level, or an empty list when
   *     requests do not run by profile (or profiles are mixed)
   */
  public static List<Phase> of(LoadSettings load, List<String> profiles) {
    return of(load, profiles, InjectorSettings.ALONE);
  }

  /**
   * The phases of one injector of several: its share of each level's concurrency and prompts
   * (shares differ by at most one), of an open model's rate; the levels keep the whole load's names
   * ({@code c128} on every injector), so their records merge into one level.
   */
  public static List<Phase> of(
      LoadSettings load, List<String> profiles, InjectorSettings injector) {
    List<Phase> phases = new ArrayList<>(warmup(load, injector));
    Function<OptionalInt, OptionalInt> sharePrompts =
        p -> p.isPresent() ? OptionalInt.of(injector.share(p.getAsInt())) : p;
    List<String> split = profiles.isEmpty() ? Collections.singletonList(null) : profiles;
    // at least one in flight on each injector, however many share the cap
    OptionalInt maxConc =
        load.maxConc().isPresent()
            ? OptionalInt.of(Math.max(1, injector.share(load.maxConc().getAsInt())))
            : OptionalInt.empty();
    if (load.ramp().isPresent()) {
      Ramp whole = load.ramp().get();
      Level.Ramped level = new Level.Ramped(whole);
      Ramp share = shareOf(whole, injector);
      boolean rate = whole.kind() == Ramp.Kind.RATE;
      for (Phase.Trial trial : trials(load)) {
        for (int p = 0; p < split.size(); p++) {
          phases.add(
              new Phase.Ramped(
                  level,
                  split.get(p),
                  share,
                  rate ? load.burstiness() : 1,
                  rate ? maxConc : OptionalInt.empty(),
                  rate ? sharePrompts.apply(load.promptsOf(0)) : OptionalInt.empty(),
                  load.durationSeconds(),
                  p == split.size() - 1 && trial.number() == trial.count(),
                  trial));
        }
      }
      return phases;
    }
    if (load.open()) {
      List<Level.Open> steps = imageSteps(Level.open(load.rate().getAsDouble()), load);
      for (int i = 0; i < steps.size(); i++) {
        Level.Open level = steps.get(i);
        for (Phase.Trial trial : trials(load)) {
          for (int p = 0; p < split.size(); p++) {
            phases.add(
                new Phase.Open(
                    level,
                    split.get(p),
                    level.rate() / injector.count(),
                    load.burstiness(),
                    maxConc,
                    sharePrompts.apply(load.promptsOf(i)),
                    load.durationSeconds(),
                    p == split.size() - 1 && trial.number() == trial.count(),
                    trial));
          }
        }
      }
      return phases;
    }
    int i = 0; // the level's place in the run, for its count of prompts
    for (int conc : load.levels()) {
      for (Level.Closed level : imageSteps(Level.closed(conc), load)) {
        for (Phase.Trial trial : trials(load)) {
          for (int p = 0; p < split.size(); p++) {
            phases.add(
                new Phase.Closed(
                    level,
                    split.get(p),
                    injector.share(level.conc()),
                    sharePrompts.apply(load.promptsOf(i)),
                    load.durationSeconds(),
                    p == split.size() - 1 && trial.number() == trial.count(),
                    trial));
          }
        }
        i++;
      }
    }
    return phases;
  }

  /** A level of each step of a ladder over images' count or size, or the level itself. */
  @SuppressWarnings("unchecked")
  static <L extends Level> List<L> imageSteps(L level, LoadSettings load) {
    if (load.imageLadder().isEmpty()) {
      return List.of(level);
    }
    List<L> out = new ArrayList<>();
    load.imageLadder().forEach(n -> out.add((L) Level.withImages(level, n)));
    return out;
  }

  /**
   * One injector's share of a ramp: a rate's both ends divided by the injectors, a concurrency's
   * ends shared as a level's ({@link InjectorSettings#share}).
   */
  static Ramp shareOf(Ramp ramp, InjectorSettings injector) {
    if (!injector.sharded()) {
      return ramp;
    }
    return ramp.kind() == Ramp.Kind.RATE
        ? new Ramp(
            ramp.shape(), ramp.kind(), ramp.from() / injector.count(), ramp.to() / injector.count())
        : new Ramp(
            ramp.shape(),
            ramp.kind(),
            injector.share((int) ramp.from()),
            injector.share((int) ramp.to()));
  }

  /**
   * Each ramp level's length in s: its duration, or for a rate ramp of a count of requests, the
   * time the ramp expects them to take.
   */
  public static Map<String, Double> rampSeconds(List<Phase> phases) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (Phase p : phases) {
      if (p instanceof Phase.Ramped r) {
        out.put(
            r.level().tag(),
            r.rate()
                ? Arrivals.rampSeconds(r.ramp(), r.prompts().orElse(0), r.durationSeconds())
                : r.durationSeconds());
      }
    }
    return out;
  }

  /** A level's trials, back to back ({@code -Dtrials}); one for a level that runs once. */
  static List<Phase.Trial> trials(LoadSettings load) {
    List<Phase.Trial> out = new ArrayList<>();
    for (int t = 1; t <= load.trials(); t++) {
      out.add(new Phase.Trial(t, load.trials(), load.trialsCooldownSeconds()));
    }
    return out;
  }

  /**
   * Prompts made before the load per request in flight of a phase that runs for a time: a pool used
   * in turn.
   */
  public static final int POOL_PER_SLOT = 8;

  /** The most prompts made before the load, whatever the plan sends. */
  public static final int MAX_PREPARED = 10_000;

  /**
   * Requests to make prompts for before the load, for the measured phases (or the warmup): each
   * phase's {@code prompts}, or for a phase that runs for a time, a pool of {@value #POOL_PER_SLOT}
   * per request in flight (open model: the expected arrivals + 20%); for a search's probes, the
   * largest one's pool; each conversation's turns; at most {@value #MAX_PREPARED}.
   */
  public static int plannedRequests(
      List<Phase> phases,
      Optional<SearchSettings> search,
      int durationSeconds,
      int turns,
      boolean warmup) {
    long n = 0;
    if (!warmup && search.isPresent()) { // the largest probe's, used in turn by every probe
      SearchSettings s = search.get();
      n =
          s.rate()
              ? (long) Math.ceil(s.max() * durationSeconds * 1.2)
              : (long) s.max() * POOL_PER_SLOT;
    }
    for (Phase p : phases) {
      if (p.level().measured() == warmup) {
        continue;
      }
      n +=
          p.<Long>match(
              closed ->
                  closed.prompts().isPresent()
                      ? closed.prompts().getAsInt()
                      : (long) closed.conc() * POOL_PER_SLOT,
              open ->
                  open.prompts().isPresent()
                      ? open.prompts().getAsInt()
                      : (long) Math.ceil(open.rate() * open.durationSeconds() * 1.2),
              ramped ->
                  ramped.prompts().isPresent()
                      ? ramped.prompts().getAsInt()
                      : ramped.rate()
                          ? (long)
                              Math.ceil(
                                  ramped
                                          .ramp()
                                          .cumulative(
                                              ramped.durationSeconds(), ramped.durationSeconds())
                                      * 1.2)
                          : (long) ramped.ramp().peak() * POOL_PER_SLOT,
              trace -> (long) trace.sendTimes().size(),
              warmupPhase -> (long) warmupPhase.promptCount());
    }
    return (int) Math.min(n * turns, MAX_PREPARED);
  }

  /**
   * The requests to make prompts for before the load, measured and warmup, as the workload's
   * preparation takes them.
   */
  public static PreparedWorkload.PlannedRequests planned(
      List<Phase> phases, Optional<SearchSettings> search, int durationSeconds, int turns) {
    return new PreparedWorkload.PlannedRequests(
        plannedRequests(phases, search, durationSeconds, turns, false),
        plannedRequests(phases, search, durationSeconds, turns, true),
        reusesPlannedRequests(phases, search),
        peakConcurrency(phases, search));
  }

  /**
   * The most requests in flight at once: the highest closed level (or a concurrency search's
   * maximum), an open level's {@code -Dmax.conc}; 0 when an open level has no cap.
   */
  static int peakConcurrency(List<Phase> phases, Optional<SearchSettings> search) {
    int peak = search.filter(s -> !s.rate()).map(s -> (int) Math.ceil(s.max())).orElse(0);
    for (Phase p : phases) {
      if (p instanceof Phase.Closed c) {
        peak = Math.max(peak, c.conc());
      } else if (p instanceof Phase.Open o) {
        if (o.maxConc().isEmpty()) {
          return 0;
        }
        peak = Math.max(peak, o.maxConc().getAsInt());
      } else if (p instanceof Phase.Ramped r) {
        if (r.rate() && r.maxConc().isEmpty()) {
          return 0;
        }
        peak = Math.max(peak, r.rate() ? r.maxConc().getAsInt() : (int) r.ramp().peak());
      }
    }
    return search.filter(SearchSettings::rate).isPresent() ? 0 : peak;
  }

  /**
   * Whether the measured load may send more requests than {@link #plannedRequests} counts (a
   * search, or a phase that runs for a time), so the prompts made before it are used in turn.
   */
  public static boolean reusesPlannedRequests(List<Phase> phases, Optional<SearchSettings> search) {
    return search.isPresent()
        || phases.stream().filter(p -> p.level().measured()).anyMatch(p -> p.prompts().isEmpty());
  }
}
