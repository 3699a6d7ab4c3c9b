package io.github.llmbench;

import io.gatling.javaapi.core.PopulationBuilder;
import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.gates.LevelFigures;
import io.github.llmbench.injection.CapacitySearchLoad;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.RequestChains;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SearchSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A capacity search as it runs: picks each probe's load from the probes judged before, within the
 * time budget, and judges a drained probe on its analysis: a concurrency on its steady window (its
 * whole level where it has none), a rate on its whole level, as vLLM's goodput at a request rate
 * is. The Gatling load is {@link CapacitySearchLoad}'s; the search sits here, by the run's end,
 * because judging reads the analysis and the gates' figures, which come after the load.
 */
final class CapacitySearchRun {
  private final CapacitySearch search;
  private final List<CapacitySearch.Objective> objectives = new ArrayList<>();
  private final List<CapacitySearch.Probe> probes = Collections.synchronizedList(new ArrayList<>());
  private final boolean steadyWindow;
  private final long budgetMs;
  private final long probeMs;
  private final LongSupplier clockMs;
  private final AtomicLong startedMs = new AtomicLong();
  private final SearchSettings settings;
  private volatile boolean loaded;

  /**
   * @param probeSeconds how long each probe runs ({@code -Dduration})
   * @param clockMs the wall clock, ms
   */
  CapacitySearchRun(SearchSettings s, int probeSeconds, LongSupplier clockMs) {
    this.settings = s;
    this.search = new CapacitySearch(s.min(), s.max(), s.precision(), !s.rate());
    s.objectives().forEach((f, l) -> objectives.add(new CapacitySearch.Objective(f, l)));
    this.steadyWindow = !s.rate();
    this.budgetMs = s.budgetMinutes() * 60_000L;
    this.probeMs = probeSeconds * 1000L;
    this.clockMs = clockMs;
  }

  /** The search {@code -Dsearch} asks for, each probe {@code -Dduration} long; empty for none. */
  static Optional<CapacitySearchRun> forRun(BenchSettings settings) {
    return settings
        .search()
        .map(
            s ->
                new CapacitySearchRun(
                    s, settings.load().durationSeconds(), System::currentTimeMillis));
  }

  /**
   * The next probe's load, or 0 when the search is over or the next probe would not end within the
   * budget.
   */
  double next() {
    startedMs.compareAndSet(0, clockMs.getAsLong()); // the budget counts from the first probe
    if (!probes.isEmpty() && clockMs.getAsLong() - startedMs.get() + probeMs > budgetMs) {
      return 0;
    }
    return search.next(List.copyOf(probes)).orElse(0);
  }

  /**
   * Judges a drained probe on its level's analysis (null when it has none: no request finished).
   */
  void drained(double load, RunAnalysis.Level level) {
    probes.add(
        CapacitySearch.judge(
            load, level == null ? Map.of() : probeFigures(level, steadyWindow).slo(), objectives));
  }

  /**
   * The search's load (see {@link CapacitySearchLoad#of}), its probes picked and judged here; the
   * search has an answer once this load is built.
   */
  PopulationBuilder load(
      BenchSettings run,
      RequestChains chains,
      List<Phase> phases,
      Consumer<Level> beforeProbe,
      Function<Level, RunAnalysis.Level> levelDrained) {
    PopulationBuilder population =
        CapacitySearchLoad.of(
            settings,
            run.load(),
            run.workload().seed(),
            chains,
            phases,
            levelDrained::apply,
            () -> {
              double next = next();
              if (next > 0) { // the probe's step runs before it: the calls between levels
                beforeProbe.accept(settings.rate() ? Level.open(next) : Level.closed((int) next));
              }
              return next;
            },
            (level, probeLoad) ->
                drained(
                    probeLoad,
                    levelDrained.apply(level))); // the analysis printed is the one judged
    loaded = true;
    return population;
  }

  /**
   * The search's answer from the probes judged so far; empty when its load was never built (a
   * simulation's own injection).
   */
  Optional<CapacitySearch.Verdict> verdict() {
    return loaded ? Optional.of(answer()) : Optional.empty();
  }

  /** The bracket of the probes judged so far. */
  CapacitySearch.Verdict answer() {
    return search.verdict(List.copyOf(probes));
  }

  /**
   * A probe's figures; with {@code steadyWindow}, TTFT and TPOT of its steady window where it has
   * one.
   */
  static LevelFigures probeFigures(RunAnalysis.Level l, boolean steadyWindow) {
    LevelFigures f = LevelFigures.of(l, Optional.empty());
    return steadyWindow && l.steady().reached()
        ? f.withLatency(Metric.TTFT, l.steady().ttft()).withLatency(Metric.TPOT, l.steady().tpot())
        : f;
  }
}
