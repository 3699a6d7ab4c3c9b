package io.github.llmbench.run;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.gates.RelativeBase;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.RunModeSettings;
import io.github.llmbench.settings.SearchSettings;
import io.github.llmbench.workload.PreparedWorkload;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A capacity search ({@code -Dsearch}): the warmup, then probes it picks as it runs ({@link
 * CapacitySearchRun}) within its budget, each judged on its objectives; the highest load that meets
 * them is the run's answer, which a capacity gate judges.
 */
public record CapacitySearchMode(SearchSettings search) implements LoadMode {

  static Optional<RunMode> of(RunModeSettings mode) {
    return mode instanceof SearchSettings s
        ? Optional.of(new CapacitySearchMode(s))
        : Optional.empty();
  }

  /** A capacity gate against a baseline compares a capacity of this search's kind. */
  @Override
  public RunGates gates(BenchSettings settings) {
    return RunGates.of(settings, RelativeBase.STORED_BASELINE).checkSameKindAsBaseline(search);
  }

  /** The warmup only: the probes are chosen as the search runs, so no level is planned. */
  @Override
  public List<Phase> phases(BenchSettings settings, PreparedWorkload workload) {
    return LoadPlan.search(settings.load());
  }

  @Override
  public PreparedWorkload.PlannedRequests plannedRequests(
      List<Phase> phases, BenchSettings settings) {
    return LoadPlan.planned(
        phases,
        Optional.of(search),
        settings.load().durationSeconds(),
        settings.workload().turns());
  }

  /** The planned phases' limits, then the search's budget. */
  @Override
  public Duration maxDuration(List<Phase> phases, BenchSettings settings) {
    return LoadPlan.maxDuration(
        phases, settings.server().timeoutSeconds(), search.budgetMinutes() * 60L);
  }

  /** The objectives' percentiles: each probe is judged on them. */
  @Override
  public Set<Double> percentilesJudged() {
    Set<Double> needed = new LinkedHashSet<>();
    search
        .objectives()
        .keySet()
        .forEach(
            f -> {
              if (f instanceof LatencyFigure l && l.statistic().isPercentile()) {
                needed.add(l.statistic().percentile());
              }
            });
    return needed;
  }

  /** Every probe is a level of its own. */
  @Override
  public boolean titlesLevels(List<Phase> phases) {
    return true;
  }

  @Override
  public Running begin(Context context) {
    return new CapacitySearchRun(
        search, context.settings().load().durationSeconds(), System::currentTimeMillis);
  }
}
