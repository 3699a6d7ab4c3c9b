package io.github.llmbench.run;

import io.gatling.javaapi.core.PopulationBuilder;
import io.github.llmbench.gates.RelativeBase;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Populations;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.RunModeSettings;
import io.github.llmbench.workload.PreparedWorkload;
import java.util.List;
import java.util.Optional;

/**
 * The default mode: the levels the load settings plan (a ladder, a ramp, an open-model phase, a
 * trace's replay, profiles in order), each drained before the next; relative gates against a stored
 * baseline.
 */
public record PlannedLevels() implements LoadMode {

  static Optional<RunMode> of(RunModeSettings mode) {
    return mode instanceof RunModeSettings.Planned
        ? Optional.of(new PlannedLevels())
        : Optional.empty();
  }

  @Override
  public RunGates gates(BenchSettings settings) {
    return RunGates.of(settings, RelativeBase.STORED_BASELINE);
  }

  @Override
  public List<Phase> phases(BenchSettings settings, PreparedWorkload workload) {
    return LoadPlan.forRun(settings, workload.traceSendTimes(), workload.sequentialProfiles());
  }

  @Override
  public Running begin(Context context) {
    BenchSettings settings = context.settings();
    return new Running() {
      @Override
      public PopulationBuilder load(Levels levels) {
        return Populations.planned(
            levels.phases(), settings, levels.chains(), levels.control(), levels.drained()::apply);
      }
    };
  }
}
