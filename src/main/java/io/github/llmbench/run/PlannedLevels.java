package io.github.llmbench.run;

import io.github.llmbench.gates.RelativeBase;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.Populations;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.RunModeSettings;
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

  /** Each planned level in turn, with the kit's calls to the server before each. */
  @Override
  public Running begin(Context context) {
    return levels ->
        Populations.planned(
            levels.phases(),
            levels.settings(),
            levels.chains(),
            levels.control(),
            levels.drained()::apply);
  }
}
