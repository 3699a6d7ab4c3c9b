package io.github.llmbench.injection;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ClosedInjectionStep;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.settings.BenchSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Turns the {@link LoadPlan} into Gatling populations chained with {@code andThen}, so each phase
 * drains fully before the next starts.
 *
 * <ul>
 *   <li>closed model, stopped by time: N users at once, each sending requests one after another for
 *       the duration ({@code during(duration)}), its next request sent as soon as its last one
 *       ended;
 *   <li>closed model, stopped by count (vLLM's {@code --num-prompts} with {@code
 *       --max-concurrency}): N users at once, each sending requests while the phase's budget lasts;
 *   <li>open model: one user per arrival, gaps from {@link Arrivals}, optionally capped at {@code
 *       max.conc} in flight (an arrival waits for a free slot, as vLLM's semaphore makes it);
 *   <li>a rate ramp likewise, its gaps following the ramp's rate; a concurrency ramp: Gatling's
 *       {@code rampConcurrentUsers(C0).to(C1).during(duration)};
 *   <li>trace replay: one user per request of the trace, injected at its send time, after one user
 *       got the request chain ready (connections open, the code run once).
 * </ul>
 *
 * After the last phase of each level a one-user marker scenario reports that the level drained.
 */
public final class Populations {
  private Populations() {}

  /**
   * Session attributes of a request sent at a set time (a trace replay's, a rate probe's): that
   * time in µs from the start, and the start ({@link System#nanoTime()}); the request is built
   * first and sent at that time, and its record tells how late it was sent.
   */
  public static final String SEND_AT_MICROS = "llm.traceMicros";

  public static final String SEND_CLOCK_START_NANOS = "llm.traceStartNanos";

  /**
   * The run's planned load: the phases with their start times ({@link LoadPlan#starts}: {@code
   * -Dstart.at}, a sharded run's timeline), the run's request chains, and the kit's calls to the
   * server before each measured level where the settings ask for any.
   */
  public static PopulationBuilder planned(
      List<Phase> phases,
      BenchSettings settings,
      RequestChains chains,
      ServerControl control,
      Consumer<Level> onLevelDrained) {
    return chain(
        phases,
        LoadPlan.starts(phases, settings.injector(), settings.load().durationSeconds()),
        chains::oneRequest,
        chains::ready,
        control.beforeLevels() ? control::beforeLevel : null,
        onLevelDrained,
        settings.workload().seed());
  }

  /**
   * @param oneRequest the chain of one request of a phase (already inside its groups)
   * @param onLevelDrained called once all requests of a level have finished
   * @param seed seeds the open-model arrival gaps
   */
  public static PopulationBuilder chain(
      List<Phase> phases,
      Function<Phase, ChainBuilder> oneRequest,
      Consumer<Level> onLevelDrained,
      long seed) {
    return chain(
        phases,
        Collections.nCopies(phases.size(), OptionalLong.empty()),
        oneRequest,
        null,
        onLevelDrained,
        seed);
  }

  /**
   * As {@link #chain(List, Function, Consumer, long)}, each phase with a start time of its own
   * ({@link LoadPlan#timeline}) waiting for it (a phase that drained late starts at once).
   *
   * @param ready the chain that gets a trace phase's requests ready, run by one user just before
   *     the phase (its first request would otherwise pay the client's first use), or null for none
   */
  public static PopulationBuilder chain(
      List<Phase> phases,
      List<OptionalLong> startsMs,
      Function<Phase, ChainBuilder> oneRequest,
      Function<Phase, ChainBuilder> ready,
      Consumer<Level> onLevelDrained,
      long seed) {
    return chain(phases, startsMs, oneRequest, ready, null, onLevelDrained, seed);
  }

  /**
   * As {@link #chain(List, List, Function, Function, Consumer, long)}, with {@code beforeLevel}
   * (null for none) run by one user just before each measured level (each trial of it) starts, once
   * the one before has drained: the kit's own calls to the server between levels ({@link
   * ServerControl}).
   */
  public static PopulationBuilder chain(
      List<Phase> phases,
      List<OptionalLong> startsMs,
      Function<Phase, ChainBuilder> oneRequest,
      Function<Phase, ChainBuilder> ready,
      Consumer<Level> beforeLevel,
      Consumer<Level> onLevelDrained,
      long seed) {
    List<PopulationBuilder> ordered = new ArrayList<>();
    for (int i = 0; i < phases.size(); i++) {
      Phase phase = phases.get(i);
      OptionalLong at = startsMs.get(i);
      if (ready != null && phase instanceof Phase.Trace) {
        ordered.add(
            scenario("ready " + phase.scenarioName())
                .exec(ready.apply(phase))
                .injectOpen(atOnceUsers(1)));
      }
      if (at.isPresent()) {
        // Gatling starts a chain's next population on its injector's next tick, up to about a
        // second
        // after the one before ends: a phase starts within about a second of its time (waiting in
        // the phase's own users instead would shorten a level that Gatling times from its start)
        long startMs = at.getAsLong();
        ordered.add(
            scenario("start " + phase.scenarioName())
                .exec(
                    pause(
                        session ->
                            Duration.ofMillis(Math.max(0, startMs - System.currentTimeMillis()))))
                .injectOpen(atOnceUsers(1)));
      }
      if (phase.trial().pauseBeforeSeconds() > 0) {
        ordered.add(
            scenario("cool-down " + phase.scenarioName())
                .exec(pause(Duration.ofSeconds(phase.trial().pauseBeforeSeconds())))
                .injectOpen(atOnceUsers(1)));
      }
      if (beforeLevel != null && startsLevel(phases, i) && !followsDrained(phases, startsMs, i)) {
        ordered.add(
            scenario("before " + phase.scenarioName())
                .exec(
                    session -> {
                      beforeLevel.accept(phase.level());
                      return session;
                    })
                .injectOpen(atOnceUsers(1)));
      }
      ordered.add(population(phase, oneRequest.apply(phase), seed));
      if (phase.lastOfLevel()) {
        // the next level's calls in the same marker: each population of a chain costs up to a
        // second of Gatling's ticks
        Phase next =
            beforeLevel != null && i + 1 < phases.size() && followsDrained(phases, startsMs, i + 1)
                ? phases.get(i + 1)
                : null;
        ordered.add(
            scenario("drained " + phase.level().tag())
                .exec(
                    session -> {
                      onLevelDrained.accept(phase.level());
                      if (next != null) {
                        beforeLevel.accept(next.level());
                      }
                      return session;
                    })
                .injectOpen(atOnceUsers(1)));
      }
    }
    return inOrder(ordered);
  }

  /**
   * Whether phase {@code i} starts a measured level right after the previous level's drained
   * marker, with nothing between (no start time, cool-down or trace readiness), so that marker can
   * make the calls before it.
   */
  private static boolean followsDrained(List<Phase> phases, List<OptionalLong> startsMs, int i) {
    Phase p = phases.get(i);
    return i > 0
        && startsLevel(phases, i)
        && phases.get(i - 1).lastOfLevel()
        && startsMs.get(i).isEmpty()
        && p.trial().pauseBeforeSeconds() == 0
        && !(p instanceof Phase.Trace);
  }

  /**
   * Whether phase {@code i} is the first of a measured level's trial (profiles sent in order are
   * several phases of one level; the warmup is not measured).
   */
  static boolean startsLevel(List<Phase> phases, int i) {
    Phase p = phases.get(i);
    if (!p.level().measured()) {
      return false;
    }
    Phase before = i == 0 ? null : phases.get(i - 1);
    return before == null || !before.level().equals(p.level()) || !before.trial().equals(p.trial());
  }

  /** The populations chained with {@code andThen}: each starts once the one before has ended. */
  static PopulationBuilder inOrder(List<PopulationBuilder> ordered) {
    PopulationBuilder chain = ordered.get(ordered.size() - 1);
    for (int i = ordered.size() - 2; i >= 0; i--) {
      chain = ordered.get(i).andThen(chain);
    }
    return chain;
  }

  /** The gaps before each send time (the first from the phase's start). */
  static List<Double> gapsOf(List<Double> sendTimes) {
    List<Double> gaps = new ArrayList<>(sendTimes.size());
    double previous = 0;
    for (double t : sendTimes) {
      gaps.add(t - previous);
      previous = t;
    }
    return gaps;
  }

  /**
   * An open model's request capped at {@code conc} in flight: an arrival waits for a free slot, as
   * vLLM's semaphore makes it; its arrival is noted, so its record has the wait.
   */
  static ChainBuilder capped(ChainBuilder request, int conc) {
    Semaphore slots = new Semaphore(conc);
    return exec(session -> session.set(StreamCapture.ARRIVED_NANOS, System.nanoTime()))
        .asLongAs(session -> !slots.tryAcquire())
        .on(pause(Duration.ofMillis(1)))
        .exec(request)
        .exec(
            session -> {
              slots.release();
              return session;
            });
  }

  private static PopulationBuilder population(Phase phase, ChainBuilder request, long seed) {
    return phase.match(
        closed ->
            closed.prompts().isPresent()
                ? byCount(closed, request, closed.conc(), closed.prompts().getAsInt())
                : byTime(closed, request, closed.conc(), closed.durationSeconds()),
        open ->
            arrivals(
                open,
                open.maxConc().isPresent() ? capped(request, open.maxConc().getAsInt()) : request,
                gaps(open, seed)),
        ramped ->
            ramped.rate()
                ? arrivals(
                    ramped,
                    ramped.maxConc().isPresent()
                        ? capped(request, ramped.maxConc().getAsInt())
                        : request,
                    gaps(ramped, seed))
                : scenario(ramped.scenarioName())
                    .exec(request)
                    .injectClosed(concurrencyRamp(ramped.ramp(), ramped.durationSeconds())),
        trace -> arrivals(trace, request, gapsOf(trace.sendTimes())),
        warmup -> byCount(warmup, request, warmup.conc(), warmup.promptCount()));
  }

  /**
   * A concurrency ramp as Gatling's closed steps: one {@code rampConcurrentUsers} when linear, one
   * per second when exponential (Gatling ramps concurrency only linearly).
   */
  static List<ClosedInjectionStep> concurrencyRamp(Ramp ramp, int durationSeconds) {
    if (ramp.shape() == Ramp.Shape.LINEAR) {
      return List.of(
          rampConcurrentUsers((int) ramp.from()).to((int) ramp.to()).during(durationSeconds));
    }
    List<ClosedInjectionStep> steps = new ArrayList<>(durationSeconds);
    for (int i = 0; i < durationSeconds; i++) {
      int a = (int) Math.round(ramp.at((double) i / durationSeconds));
      int b = (int) Math.round(ramp.at((double) (i + 1) / durationSeconds));
      steps.add(
          a == b ? constantConcurrentUsers(a).during(1) : rampConcurrentUsers(a).to(b).during(1));
    }
    return steps;
  }

  /** An open phase's arrival gaps, in s, as its population draws them. */
  private static List<Double> gaps(Phase.Open open, long seed) {
    return Arrivals.gaps(
        open.rate(), open.burstiness(), open.prompts().orElse(0), open.durationSeconds(), seed);
  }

  /** A rate ramp's arrival gaps, in s, as its population draws them. */
  private static List<Double> gaps(Phase.Ramped ramped, long seed) {
    return Arrivals.ramped(
        ramped.ramp(),
        ramped.burstiness(),
        ramped.prompts().orElse(0),
        ramped.durationSeconds(),
        seed);
  }

  /**
   * Each open level's arrival schedule (each arrival's time from the level's start, in s), drawn as
   * its population draws it, for levels of one phase that run once; the others have none.
   */
  public static Map<String, double[]> arrivalTimes(List<Phase> phases, long seed) {
    Map<String, double[]> out = new LinkedHashMap<>();
    Set<String> several = new HashSet<>();
    for (Phase p : phases) {
      List<Double> gaps =
          p instanceof Phase.Open open
              ? gaps(open, seed)
              : p instanceof Phase.Ramped ramped && ramped.rate() ? gaps(ramped, seed) : null;
      if (gaps != null && !p.trial().repeated()) {
        String tag = p.level().tag();
        double[] times = new double[gaps.size()];
        double t = 0;
        for (int i = 0; i < times.length; i++) {
          t += gaps.get(i);
          times[i] = t;
        }
        if (out.put(tag, times) != null) {
          several.add(tag);
        }
      }
    }
    several.forEach(out::remove);
    return out;
  }

  /** One user per arrival, each after its gap from the one before. */
  private static PopulationBuilder arrivals(Phase phase, ChainBuilder request, List<Double> gaps) {
    List<OpenInjectionStep> steps = new ArrayList<>(2 * gaps.size());
    for (double gap : gaps) {
      steps.add(nothingFor(Duration.ofNanos(Math.round(gap * 1e9))));
      steps.add(atOnceUsers(1));
    }
    return scenario(phase.scenarioName()).exec(request).injectOpen(steps);
  }

  /**
   * {@code conc} users, each sending requests one after another until {@code seconds} have passed
   * since the phase began, its last one let finish: the closed model, as vLLM's semaphore keeps it.
   * A user's next request is built and sent on its own event loop as soon as its last one has
   * ended; Gatling's {@code constantConcurrentUsers} would end the user and start another through
   * its injector actor, thread hops that cost a slot milliseconds on a busy machine (issue 45). The
   * users start spread over the first second, as Gatling's closed injection starts them: started
   * together, requests of one length would stay in step, each wave's prompts queued at once.
   */
  private static PopulationBuilder byTime(
      Phase phase, ChainBuilder request, int conc, int seconds) {
    AtomicLong deadline = new AtomicLong(); // System.nanoTime() at the end; set by the first user
    long span = Duration.ofSeconds(seconds).toNanos();
    return scenario(phase.scenarioName())
        .asLongAs(
            session -> {
              long now = System.nanoTime();
              deadline.compareAndSet(0, now + span);
              return now < deadline.get();
            })
        .on(request)
        .injectOpen(rampUsers(conc).during(Duration.ofSeconds(1)));
  }

  /**
   * {@code conc} users at once, each sending requests while the phase's count of {@code prompts}
   * lasts.
   */
  private static PopulationBuilder byCount(
      Phase phase, ChainBuilder request, int conc, int prompts) {
    AtomicLong budget = new AtomicLong(prompts);
    return scenario(phase.scenarioName())
        .asLongAs(session -> budget.getAndDecrement() > 0)
        .on(request)
        .injectOpen(atOnceUsers(Math.min(conc, prompts)));
  }
}
