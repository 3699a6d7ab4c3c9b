package io.github.llmbench.settings;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the report computes with ({@code -Dhelp}'s "Report, gates and capacity search", first part):
 * the roofline's model, GPU and tensor parallelism, and the percentiles shown.
 *
 * @param percentiles {@code -Dpercentiles}: the latency percentiles the blocks, {@code
 *     summary.json} and {@code llm.html} show, in order; empty when not given (each block keeps its
 *     own rows)
 * @param history {@code -Dhistory} and {@code -Dgate.history}
 */
public record ReportSettings(
    Roofline roofline, Optional<List<Double>> percentiles, History history) {

  private static final String HEADING = SettingsTable.REPORT;
  private static final Parser<String> TEXT = Parser.text();

  public static final Setting<String> MODEL_SPEC =
      Setting.without(
          HEADING,
          "model.spec",
          "the simulator's model, or the catalog entry named like the served one",
          "a catalog id or a Hugging Face config.json",
          "the roofline's model",
          TEXT);
  public static final Setting<String> GPU =
      Setting.without(
          HEADING,
          "gpu",
          "the simulator's GPU; none for a real server",
          "a catalog GPU id",
          "the roofline's GPU",
          Parser.oneOf(() -> Catalog.gpus().keySet()));
  public static final Setting<Integer> TP =
      Setting.without(
          HEADING,
          "tp",
          "sim.tp, or 1 for a real server",
          "a whole number from 1 to 64",
          "the roofline's tensor-parallel GPUs",
          Parser.positiveInt(SimulatorSettings.MAX_TP));
  public static final Setting<List<Double>> PERCENTILES =
      Setting.without(
          HEADING,
          "percentiles",
          "99,90 (and each block's own rows)",
          Parser.PERCENTILES_ACCEPTED,
          "the latency percentiles of every result block, summary.json and llm.html"
              + " (vllm bench serve --metric-percentiles); gates take any percentile",
          Parser.percentiles());

  public static final Setting<String> HISTORY =
      Setting.without(
          HEADING,
          "history",
          "none",
          "a folder (created when missing)",
          "keep each run's per-trial figures in FOLDER/history.jsonl, for change points"
              + " (exec:java@history) and -Dgate.history",
          TEXT);

  /** A name of the {@code gate.} family that is not a gate on a level: the history's. */
  public static final Setting<String> GATE_HISTORY =
      Setting.without(
          HEADING,
          "gate.history",
          "none",
          "FIGURE:+N%[,FIGURE:-N%...] (e.g. tpot.mean:+10%,output_throughput.min:-10%)",
          "fail a run while a CUSUM on -Dhistory's series finds a change worse than N% (post-merge"
              + " monitoring)",
          TEXT);

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS =
      List.of(MODEL_SPEC, GPU, TP, PERCENTILES, HISTORY, GATE_HISTORY);

  /**
   * Reads the group's settings.
   *
   * @param defaultTp the roofline's tensor parallelism when {@code -Dtp} is not given
   */
  static ReportSettings read(SettingReader r, int defaultTp) {
    return new ReportSettings(
        new Roofline(r.optional(MODEL_SPEC), r.optional(GPU), r.optional(TP).orElse(defaultTp)),
        r.optional(PERCENTILES),
        new History(r.optional(HISTORY).map(Path::of), r.optional(GATE_HISTORY)));
  }

  /**
   * The history of runs ({@code docs/history.md}).
   *
   * @param dir the folder of {@code history.jsonl}; empty: no history is kept
   * @param gate {@code -Dgate.history} as given (the history package parses it before any load)
   */
  public record History(Optional<Path> dir, Optional<String> gate) {}

  /** Model and GPU for the roofline; absent = taken from the simulator or the catalog. */
  public record Roofline(Optional<String> modelSpec, Optional<String> gpu, int tp) {}
}
