package io.github.llmbench.injection;

import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.github.llmbench.core.Level;
import io.github.llmbench.records.RequestOrigin.Side;
import io.github.llmbench.settings.LoadSettings;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An interleaved A/B run's load: its planned warmup (its requests to A and B in turn), then trials
 * in pairs, each {@code -Dduration} s of the run's one level on one server. Gatling fixes its
 * populations before the run while the run decides after each pair whether to go on, so the trials
 * are a capacity search's probe slots ({@link CapacityProbes}): as a slot starts, the run's {@link
 * AdaptiveLevels} gives its trial (empty: the run is over, and the slot sends nothing); once it has
 * drained, gets it back.
 */
public final class AbPairsLoad {
  private AbPairsLoad() {}

  /**
   * @param level the run's one level: a concurrency or a request rate
   * @param maxPairs the most pairs (two slots each)
   * @param warmup the planned phases before the pairs (the warmup), maybe none
   * @param onWarmupDrained called once the warmup has drained
   * @param base the requests to A (the base)
   * @param candidate the requests to B (the candidate)
   */
  public static PopulationBuilder of(
      Level level,
      int maxPairs,
      LoadSettings load,
      long seed,
      List<Phase> warmup,
      Consumer<Level> onWarmupDrained,
      RequestChains base,
      RequestChains candidate,
      AdaptiveLevels<PairPlan.Trial> trials) {
    AtomicReference<PairPlan.Trial> current = new AtomicReference<>();
    AtomicLong prompts = new AtomicLong();
    Supplier<PairPlan.Trial> trial = current::get;
    ChainBuilder one =
        doIfOrElse(session -> current.get().side() == Side.B)
            .then(candidate.pairedRequest(level, trial, prompts::getAndIncrement))
            .orElse(base.pairedRequest(level, trial, prompts::getAndIncrement));
    Supplier<Boolean> started =
        () -> {
          Optional<PairPlan.Trial> t = trials.next();
          t.ifPresent(
              x -> {
                current.set(x);
                prompts.set(x.firstPrompt());
              });
          return t.isPresent();
        };
    int duration = load.durationSeconds();
    int slots = 2 * maxPairs;
    PopulationBuilder pairs =
        level instanceof Level.Open open
            ? CapacityProbes.open(
                "A/B trial",
                slots,
                CapacityProbes.maxRequests(open.rate(), duration, load.burstiness()),
                duration,
                load.burstiness(),
                load.maxConc().orElse(0),
                seed,
                one,
                () -> started.get() ? open.rate() : 0,
                probe -> trials.drained(current.get(), probe),
                trials::readyForNext)
            : CapacityProbes.closed(
                "A/B trial",
                slots,
                ((Level.Closed) level).conc(),
                duration,
                one,
                () -> started.get() ? ((Level.Closed) level).conc() : 0,
                probe -> trials.drained(current.get(), probe),
                trials::readyForNext);
    if (warmup.isEmpty()) {
      return pairs;
    }
    // the warmup's requests to A and B in turn: neither side's first trial pays a cold start
    AtomicLong warmed = new AtomicLong();
    return Populations.chain(
            warmup,
            phase ->
                doIfOrElse(session -> warmed.getAndIncrement() % 2 == 1)
                    .then(candidate.oneRequest(phase))
                    .orElse(base.oneRequest(phase)),
            onWarmupDrained,
            seed)
        .andThen(pairs);
  }
}
