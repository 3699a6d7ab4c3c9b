package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.ClientHealth;

/**
 * The load generator's own health over a level ({@code levels.c8.client}): the level's window, its
 * steady window's, and the verdict on the figures it measured.
 *
 * @param verdict {@code healthy}, {@code client bottleneck} or {@code not measured}
 * @param guard the guard sentence when the client limited what it measured, else null
 * @param steadyState the same figures over the steady window (null without one)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClientFigures(String verdict, String guard, Window level, Window steadyState) {

  /**
   * One window's figures; null where unknown.
   *
   * @param cpuCores the JVM's CPU time per second (1.0 = one core busy)
   * @param busiestLoopPct the busiest event loop's thread, in % of a core
   * @param lateOwnPct of the time its late tasks waited, the share the loops spent running
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Window(
      double windowS,
      int cores,
      int loops,
      Double cpuCores,
      Double busiestLoopPct,
      Double loopLagP50Ms,
      Double loopLagP99Ms,
      Double loopLagMaxMs,
      long probes,
      double gcPauseMs,
      Double gcPausePct,
      double heapMaxMb,
      Double lateOwnPct) {

    static Window of(ClientHealth.Window w) {
      return w.measured()
          ? new Window(
              w.windowS(),
              w.cores(),
              w.loops(),
              LevelSummary.finite(w.cpuCores()),
              LevelSummary.finite(w.busiestLoopPct()),
              LevelSummary.finite(w.lagP50Ms()),
              LevelSummary.finite(w.lagP99Ms()),
              LevelSummary.finite(w.lagMaxMs()),
              w.probes(),
              w.gcPauseMs(),
              LevelSummary.finite(w.gcPausePct()),
              w.heapMaxMb(),
              LevelSummary.finite(w.lateOwnPct()))
          : null;
    }

    private static double orNaN(Double v) {
      return v == null ? Double.NaN : v;
    }

    /** The figures again. */
    ClientHealth.Window health() {
      return new ClientHealth.Window(
          windowS,
          cores,
          loops,
          orNaN(cpuCores),
          orNaN(busiestLoopPct),
          orNaN(loopLagP50Ms),
          orNaN(loopLagP99Ms),
          orNaN(loopLagMaxMs),
          probes,
          gcPauseMs,
          heapMaxMb,
          orNaN(lateOwnPct));
    }
  }

  /** A level's figures, null when the probe did not run over it. */
  public static ClientFigures of(ClientHealth h, String levelName) {
    if (!h.level().measured()) {
      return null;
    }
    return new ClientFigures(
        h.verdict().toString(), h.guard(levelName), Window.of(h.level()), Window.of(h.steady()));
  }

  /** The health again, as the run had it. */
  public ClientHealth health() {
    return new ClientHealth(
        level == null ? ClientHealth.Window.NONE : level.health(),
        steadyState == null ? ClientHealth.Window.NONE : steadyState.health());
  }
}
