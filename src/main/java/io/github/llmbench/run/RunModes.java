package io.github.llmbench.run;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.RunModeSettings;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The run modes, registered in one list: each turns the settings' mode ({@link RunModeSettings},
 * chosen once as the settings are read) into its behaviour, or declines. A new mode is its file
 * here and its line in {@link #MODES}.
 */
public final class RunModes {
  private RunModes() {}

  /** Each mode's factory: the mode for its own settings, empty for another mode's. */
  static final List<Function<RunModeSettings, Optional<RunMode>>> MODES =
      List.of(PlannedLevels::of, CapacitySearchMode::of, InterleavedAbMode::of, SweepLeader::of);

  /**
   * The mode the settings ask for.
   *
   * @throws IllegalStateException when no registered mode, or more than one, takes the settings'
   *     mode (a mode left out of {@link #MODES})
   */
  public static RunMode of(BenchSettings settings) {
    List<RunMode> modes = MODES.stream().flatMap(f -> f.apply(settings.mode()).stream()).toList();
    if (modes.size() != 1) {
      throw new IllegalStateException(
          modes.size()
              + " run modes take "
              + settings.mode().modeKind().name()
              + ": register exactly one in RunModes.MODES");
    }
    return modes.get(0);
  }
}
