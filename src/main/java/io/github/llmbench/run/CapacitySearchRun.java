package io.github.llmbench.run;

import io.gatling.javaapi.core.PopulationBuilder;
import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Metric;
import io.github.llmbench.gates.GoodputSpec;
import io.github.llmbench.gates.LevelFigures;
import io.github.llmbench.gates.RunFigures;
import io.github.llmbench.injection.AdaptiveLevels;
import io.github.llmbench.injection.CapacitySearchLoad;
import io.github.llmbench.report.section.CapacitySection;
import io.github.llmbench.settings.SearchSettings;
import io.github.llmbench.summary.CapacityFigures;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A capacity search as it runs: picks each probe's load from the probes judged before, within the
 * time budget, and judges a drained probe on its analysis: a concurrency on its steady window (its
 * whole level where it has none), a rate on its whole level, as vLLM's goodput at a request rate
 * is. The Gatling load is {@link CapacitySearchLoad}'s; the search sits here, by the run's end,
 * because judging reads the analysis and the gates' figures, which come after the load.
 */
final class CapacitySearchRun implements LoadMode.Running {
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
   * search has an answer once this load is built. Each probe's calls to the server (the profiler,
   * the prefix cache's reset) run before it.
   */
  @Override
  public PopulationBuilder load(LoadMode.Levels levels) {
    AdaptiveLevels<Double> probes =
        new AdaptiveLevels<>() {
          @Override
          public Optional<Double> next() {
            double next = CapacitySearchRun.this.next();
            if (next <= 0) {
              return Optional.empty();
            }
            levels
                .control()
                .beforeLevel(settings.rate() ? Level.open(next) : Level.closed((int) next));
            return Optional.of(next);
          }

          @Override
          public void drained(Double probeLoad, Level level) {
            // the analysis printed is the one judged
            CapacitySearchRun.this.drained(probeLoad, levels.drained().apply(level));
          }
        };
    PopulationBuilder population =
        CapacitySearchLoad.of(
            settings,
            levels.settings().load(),
            levels.settings().workload().seed(),
            levels.chains(),
            levels.phases(),
            levels.drained()::apply,
            probes);
    loaded = true;
    return population;
  }

  /** The search's answer: its block, its figures in the summary, the capacity the gates judge. */
  @Override
  public LoadMode.Answer answer(RunAnalysis a, Optional<GoodputSpec> goodput) {
    Optional<CapacitySearch.Verdict> verdict = verdict();
    if (verdict.isEmpty()) {
      return LoadMode.Answer.NONE;
    }
    CapacityFigures figures = CapacitySection.figures(verdict.get(), settings, goodput, a);
    return new LoadMode.Answer(
        CapacitySection.format(verdict.get(), settings, goodput, a),
        Optional.of(figures),
        Optional.ofNullable(verdict.get().capacity())
            .map(found -> new RunFigures.Capacity(found, settings.rate())));
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
