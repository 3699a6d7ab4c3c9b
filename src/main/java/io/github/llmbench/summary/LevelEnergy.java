package io.github.llmbench.summary;

import static io.github.llmbench.summary.LevelSummary.finite;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.EnergyFigures;

/**
 * A level's energy in {@code summary.json} ({@code levels.<level>.energy}): the GPUs' joules per
 * output token, output tokens per kWh and average power per GPU, and where they come from.
 *
 * @param source {@code dcgm_energy_counter} or {@code dcgm_power_integrated}
 * @param simulated true where the readings are the kit's simulator's, not a GPU's
 * @param gpus GPUs that reported
 * @param seconds the window measured
 * @param joules all GPUs' energy over it
 * @param outputTokens output tokens received over it
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LevelEnergy(
    String source,
    boolean simulated,
    int gpus,
    double seconds,
    double joules,
    double outputTokens,
    Double joulesPerOutputToken,
    Double outputTokensPerKwh,
    Double wattsPerGpu) {

  /** The summary's form of a level's energy, null when it has none. */
  static LevelEnergy of(EnergyFigures e) {
    if (!e.measured()) {
      return null;
    }
    return new LevelEnergy(
        e.source().key(),
        e.simulated(),
        e.gpus(),
        e.seconds(),
        e.joules(),
        e.outputTokens(),
        finite(e.joulesPerOutputToken()),
        finite(e.outputTokensPerKwh()),
        finite(e.wattsPerGpu()));
  }

  /** The figures back, for a baseline's gates and comparisons. */
  public EnergyFigures figures() {
    return new EnergyFigures(
        EnergyFigures.Source.ofKey(source), joules, seconds, gpus, outputTokens, simulated);
  }
}
