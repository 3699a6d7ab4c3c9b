package io.github.llmbench.injection;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.github.llmbench.core.Level;
import io.github.llmbench.settings.LoadSettings;
import io.github.llmbench.settings.SearchSettings;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;

/**
 * A capacity search's load: its planned phases (the warmup) first, then probes of the concurrency
 * (or request rate) the search picks, each for {@code -Dduration} s. Picking and judging the probes
 * is the search's, given in: it reads the analysis, which comes after the load.
 */
public final class CapacitySearchLoad {
  private CapacitySearchLoad() {}

  /**
   * @param phases the planned phases before the probes (the warmup, {@code -Dwarmup.prompts}),
   *     maybe none
   * @param onPhaseLevelDrained called once a planned phase's level has drained
   * @param probes the search: each probe's concurrency or rate, and its drained level back
   */
  public static PopulationBuilder of(
      SearchSettings search,
      LoadSettings load,
      long seed,
      RequestChains chains,
      List<Phase> phases,
      Consumer<Level> onPhaseLevelDrained,
      AdaptiveLevels<Double> probes) {
    int duration = load.durationSeconds();
    ChainBuilder one = chains.probeRequest();
    int slots = CapacityProbes.slots(search.min(), search.max(), search.precision());
    DoubleSupplier nextProbe = () -> probes.next().orElse(0.0);
    PopulationBuilder population =
        search.rate()
            ? CapacityProbes.open(
                "search probe",
                slots,
                CapacityProbes.maxRequests(search.max(), duration, load.burstiness()),
                duration,
                load.burstiness(),
                load.maxConc().orElse(0),
                seed,
                one,
                nextProbe,
                probe -> probes.drained(probe.rate(), probe),
                CapacityProbes.ALWAYS_READY)
            : CapacityProbes.closed(
                "search probe",
                slots,
                (int) search.max(),
                duration,
                one,
                () -> (int) nextProbe.getAsDouble(),
                probe -> probes.drained((double) probe.conc(), probe),
                CapacityProbes.ALWAYS_READY);
    return phases.isEmpty()
        ? population
        : Populations.chain(phases, chains::oneRequest, onPhaseLevelDrained, seed)
            .andThen(population);
  }
}
