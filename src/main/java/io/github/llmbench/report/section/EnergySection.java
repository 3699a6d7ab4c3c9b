package io.github.llmbench.report.section;

import io.github.llmbench.analysis.EnergyFigures;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The GPUs' energy per level (a console block per level, a page table), from NVIDIA's DCGM
 * exporter's figures: joules per output token, output tokens per kWh, the average power per GPU.
 * Silent without DCGM figures; says so when they are the simulator's.
 *
 * <pre>
 * -------------------------- Energy --------------------------
 * Energy per output token (J):             0.41
 * Output tokens per kWh:                   8,780,488
 * Mean power per GPU (W):                  512.30
 * GPUs, seconds measured:                  2, 31.02
 * Source:                                  DCGM energy counter over the level
 * </pre>
 */
public final class EnergySection implements ReportSection {
  EnergySection() {}

  /** A level's block, empty without figures. */
  private static String format(EnergyFigures e, String level) {
    if (!e.measured()) {
      return "";
    }
    String title = level == null || level.isBlank() ? " Energy " : " Energy (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    ServingResultBlock.labelled(
        sb, "Energy per output token (J):", Numbers.joules(e.joulesPerOutputToken()));
    ServingResultBlock.labelled(
        sb, "Output tokens per kWh:", Numbers.count(e.outputTokensPerKwh()));
    ServingResultBlock.labelled(sb, "Mean power per GPU (W):", Numbers.f2(e.wattsPerGpu()));
    ServingResultBlock.labelled(
        sb, "GPUs, seconds measured:", e.gpus() + ", " + Numbers.f2(e.seconds()));
    ServingResultBlock.labelled(sb, "Source:", source(e));
    return sb.toString();
  }

  private static String source(EnergyFigures e) {
    return e.source() + (e.simulated() ? " (simulated by the kit's simulator, not measured)" : "");
  }

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(l -> l.energy().measured());
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l.energy(), several ? l.name() : null);
  }

  /** Per level, the energy figures and their source. */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<List<Object>> rows = new ArrayList<>();
    boolean simulated = false;
    for (RunAnalysis.Level l : a.levels().values()) {
      EnergyFigures e = l.energy();
      if (!e.measured()) {
        continue;
      }
      simulated |= e.simulated();
      rows.add(
          PagePart.row(
              l.name(),
              Numbers.joules(e.joulesPerOutputToken()),
              Numbers.count(e.outputTokensPerKwh()),
              Numbers.f2(e.wattsPerGpu()),
              e.gpus(),
              Numbers.f2(e.seconds()),
              Numbers.f2(e.joules()),
              source(e)));
    }
    Table table =
        new Table(
            "Energy: the GPUs' joules per output token (DCGM)",
            List.of(
                "Level",
                "J per output token",
                "Output tokens per kWh",
                "Mean power per GPU (W)",
                "GPUs",
                "Seconds",
                "Joules (all GPUs)",
                "Source"),
            rows);
    List<PagePart.Item> parts = new ArrayList<>();
    parts.add(table);
    parts.add(
        Note.kit(
            "From DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION over the level (the kit scrapes between"
                + " levels), else DCGM_FI_DEV_POWER_USAGE integrated over the steady window;"
                + " tokens are those the client received (docs/telemetry.md#energy)."));
    if (simulated) {
      parts.add(
          Note.kit(
              "These readings are the kit's simulator's, from its roofline model: a stand-in"
                  + " that tests the path, not a GPU's measure."));
    }
    return List.of(new PagePart("llm-energy", "Energy", List.copyOf(parts)));
  }
}
