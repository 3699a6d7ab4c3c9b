package io.github.llmbench.run;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.RunModeSettings;
import io.github.llmbench.settings.SweepSettings;
import io.github.llmbench.sweep.GatlingChild;
import io.github.llmbench.sweep.SweepRun;
import java.io.PrintStream;
import java.util.Optional;

/**
 * A sweep ({@code -Dserve.cmd}, {@code -Dsweep}): this JVM leads a child run of the simulation for
 * each combination (each a Gatling JVM of its own, of whatever mode its settings ask) and sends no
 * load itself.
 */
public record SweepLeader(SweepSettings sweep) implements RunMode {

  static Optional<RunMode> of(RunModeSettings mode) {
    return mode instanceof SweepSettings s ? Optional.of(new SweepLeader(s)) : Optional.empty();
  }

  /**
   * Runs every combination of the sweep as a run of {@code simulation}.
   *
   * @return the sweep's exit status ({@link SweepRun#run})
   */
  public int lead(BenchSettings settings, Class<?> simulation, PrintStream out) {
    return SweepRun.run(settings, sweep, new GatlingChild(simulation), out);
  }
}
