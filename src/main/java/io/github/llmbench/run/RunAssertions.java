package io.github.llmbench.run;

import io.gatling.javaapi.core.Assertion;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.gates.GatlingAssertions;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.BenchSettings.DatasetKind;
import java.util.List;

/**
 * The run's gates as Gatling assertions ({@link GatlingAssertions}) on the records the capture
 * writes: composed here because the gates may not know the capture's record names.
 */
final class RunAssertions {
  private RunAssertions() {}

  /**
   * For each measured level the plan holds; none for a profile run (its records nest one group
   * deeper, so only the kit checks them) or a search (its probes are no planned level).
   */
  static List<Assertion> of(BenchSettings settings, RunGates gates, List<Phase> phases) {
    if (settings.workload().dataset() == DatasetKind.PROFILES) {
      return List.of();
    }
    List<String> levels = LoadPlan.measuredLevels(phases);
    return GatlingAssertions.of(
        gates.set().gates(), levels, gates.baselineFigures(), StreamCapture.REQUEST_RECORD);
  }
}
