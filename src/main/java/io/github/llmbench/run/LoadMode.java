package io.github.llmbench.run;

import io.gatling.javaapi.core.PopulationBuilder;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.capture.ClientProbe;
import io.github.llmbench.core.Level;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GoodputSpec;
import io.github.llmbench.gates.RunFigures;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.RequestChains;
import io.github.llmbench.injection.ServerControl;
import io.github.llmbench.injection.Target;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.summary.ModeFigures;
import io.github.llmbench.workload.PreparedWorkload;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A mode whose load runs in this JVM. What it decides before the load (its gates, its phases, its
 * hard stop) it answers from the settings; once the server and the plan are known it {@link
 * #begin}s, and the {@link Running} part drives the load and gives the mode's answer at the end.
 * Open to new modes: each is its file and its line in {@link RunModes#MODES}.
 */
public non-sealed interface LoadMode extends RunMode {

  /**
   * The server under test, checked before any load: the one the settings name (or the embedded
   * simulator), unless the mode starts its own.
   */
  default Target target(BenchSettings settings, PrintStream out) {
    return Target.resolve(settings, out);
  }

  /** The run's gates, read and checked as this mode judges them, before any load. */
  RunGates gates(BenchSettings settings);

  /**
   * The phases planned before the load: the levels the load settings describe (a trace's replay, a
   * ladder, an open-model phase), unless the mode picks its levels as it runs.
   */
  default List<Phase> phases(BenchSettings settings, PreparedWorkload workload) {
    return LoadPlan.forRun(settings, workload.traceSendTimes(), workload.sequentialProfiles());
  }

  /** The requests to make prompts for before the load. */
  default PreparedWorkload.PlannedRequests plannedRequests(
      List<Phase> phases, BenchSettings settings) {
    return LoadPlan.planned(
        phases, Optional.empty(), settings.load().durationSeconds(), settings.workload().turns());
  }

  /** The run's hard stop: every phase's limit, and what the mode runs after them. */
  default Duration maxDuration(List<Phase> phases, BenchSettings settings) {
    return LoadPlan.maxDuration(phases, settings.server().timeoutSeconds(), 0);
  }

  /** Whether each record names the server that answered (an A/B run's sides). */
  default boolean namesServers() {
    return false;
  }

  /** The servers whose metrics are scraped besides the run's own. */
  default List<URI> otherServers() {
    return List.of();
  }

  /** The percentiles the mode judges (computed even when not shown). */
  default Set<Double> percentilesJudged() {
    return Set.of();
  }

  /** Whether a level's result block names its level: when the run has several. */
  default boolean titlesLevels(List<Phase> phases) {
    return LoadPlan.measuredLevels(phases).size() > 1;
  }

  /** The mode's part of this run, once the server, the plan and the gates are known. */
  Running begin(Context context);

  /**
   * What a mode's run is made of.
   *
   * @param gates the run's gates, with the history's noise
   */
  record Context(
      BenchSettings settings,
      RunGates gates,
      Target target,
      List<Phase> phases,
      PreparedWorkload workload,
      RunRecorder recorder,
      ClientProbe clientProbe,
      PrintStream out) {}

  /**
   * What the load is built from.
   *
   * @param drained prints a drained level's blocks and gives its analysis (null for the warmup)
   */
  record Levels(
      BenchSettings settings,
      List<Phase> phases,
      RequestChains chains,
      ServerControl control,
      Function<Level, RunAnalysis.Level> drained) {}

  /**
   * The mode's answer at the end of the run.
   *
   * @param text its console block (empty for none), also in the page
   * @param figures the mode's figures in the run's summary, empty for none
   * @param capacity the capacity a capacity gate judges, empty for none
   */
  record Answer(
      String text, Optional<ModeFigures> figures, Optional<RunFigures.Capacity> capacity) {
    public static final Answer NONE = new Answer("", Optional.empty(), Optional.empty());
  }

  /** A mode's part of one run. */
  interface Running {
    /** The whole load: warmup, then the mode's levels. */
    PopulationBuilder load(Levels levels);

    /** The mode's answer from the whole run's analysis. */
    default Answer answer(RunAnalysis analysis, Optional<GoodputSpec> goodput) {
      return Answer.NONE;
    }

    /** The gates' results on the run's figures (the mode's answer among them). */
    default List<GateResult> judge(RunGates gates, RunFigures figures) {
      return gates.set().isEmpty() ? List.of() : gates.check(figures);
    }
  }
}
