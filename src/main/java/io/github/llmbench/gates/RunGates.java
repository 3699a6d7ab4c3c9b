package io.github.llmbench.gates;

import io.github.llmbench.core.Level;
import io.github.llmbench.endpoints.Endpoint;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.GateSettings;
import io.github.llmbench.settings.SearchSettings;
import io.github.llmbench.settings.SettingsException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A run's performance gates and the baseline their relative limits refer to, built from what the
 * user typed ({@link GateSettings.GateEntries}) before any load is sent.
 *
 * @param baseline the {@code -Dbaseline} path as given
 * @param baselineFigures the baseline's figures ({@link RunFigures#NONE} without a baseline)
 * @param noise the run-to-run noise known for relative gates beyond the runs' own trials ({@code
 *     -Dhistory}, else {@code -Dgate.run.noise}); {@link GateNoise#NONE} by default
 */
public record RunGates(
    GateSet set, Optional<String> baseline, RunFigures baselineFigures, GateNoise noise) {

  public static final RunGates NONE =
      new RunGates(GateSet.none(), Optional.empty(), RunFigures.NONE, GateNoise.NONE);

  /**
   * These gates judged with noise learned elsewhere (history) where it is known, else with the
   * noise they had (declared by {@code -Dgate.run.noise}): measured beats declared, figure by
   * figure.
   */
  public RunGates withNoise(GateNoise known) {
    return new RunGates(set, baseline, baselineFigures, known.orElse(noise));
  }

  /** Checks the gates on this run's figures against the baseline's, with the known noise. */
  public List<GateResult> check(RunFigures run) {
    return GateCheck.check(set, run, baselineFigures, noise);
  }

  /**
   * Before any load, per relative gate and level: whether the planned trials can decide it (hold
   * both error rates at the threshold) from the noise known then (history, else the baseline's own
   * trials' spread when it has two or more), and the smallest regression they would catch with the
   * power asked; a gate on a percentile under 20% is warned about.
   *
   * @param plannedTrials this run's trials per level ({@code -Dtrials})
   */
  public List<String> plan(int plannedTrials) {
    return GatePlan.lines(this, plannedTrials);
  }

  /**
   * Reads the gates file, parses every gate (with the default {@code failed.pct} gate) and the
   * baseline's figures.
   *
   * @param relativeBase what the relative gates compare with, as the run's mode says
   * @throws SettingsException one line, as for any other bad setting
   */
  public static RunGates of(BenchSettings settings, RelativeBase relativeBase) {
    GateSettings.GateEntries typed = settings.gates().entries();
    Map<String, String> entries = new TreeMap<>();
    typed.file().ifPresent(file -> entries.putAll(GatesFile.read(Path.of(file))));
    entries.putAll(typed.entries());
    GateSet set;
    try {
      set =
          GateSet.parse(entries, typed.file().isPresent() ? "" : "-Dgate.").withDefaultFailedPct();
    } catch (IllegalArgumentException e) {
      throw new SettingsException(e.getMessage());
    }
    Endpoint endpoint = settings.server().api();
    if (!endpoint.figures().generates()) {
      checkPooling(set, entries, typed.file().map(f -> f + ": ").orElse("-Dgate."), endpoint);
    }
    Optional<String> baseline = typed.baseline();
    if (set.needsBaseline() && baseline.isEmpty() && relativeBase == RelativeBase.STORED_BASELINE) {
      throw new SettingsException(
          "A relative gate (+N%) needs a baseline run: -Dbaseline=<run folder or its llm/summary.json>");
    }
    typed.runNoise().ifPresent(sd -> checkRunNoise(sd, set));
    RunFigures figures =
        baseline.map(b -> GatesFile.baselineFigures(Path.of(b))).orElse(RunFigures.NONE);
    GateNoise declared = typed.runNoise().map(GateNoise::declared).orElse(GateNoise.NONE);
    return new RunGates(set, baseline, figures, declared);
  }

  /**
   * A declared run-to-run noise is a relative gate's against a stored baseline: refused in a run
   * without one (the gates file is read here; an interleaved A/B run refuses it with its other
   * shapes, {@code settings/AbSettings}).
   *
   * @throws SettingsException one line, before any load
   */
  private static void checkRunNoise(double sd, GateSet set) {
    String given = "-D" + GateSettings.GATE_RUN_NOISE.name() + "=" + Level.plainNumber(sd);
    String drop = "drop -D" + GateSettings.GATE_RUN_NOISE.name();
    if (!set.needsBaseline()) {
      throw new SettingsException(
          given
              + " is the run-to-run noise of a relative gate (-Dgate.tpot.mean=+10%) against"
              + " -Dbaseline, and this run has none: add one, or "
              + drop);
    }
  }

  /**
   * An embeddings run has E2EL and its throughputs only: a gate on a figure it cannot have would
   * fail as not measured after the whole load, so it is refused before.
   */
  private static void checkPooling(
      GateSet set, Map<String, String> typed, String source, Endpoint endpoint) {
    String accepted =
        "with -Dapi="
            + endpoint.id()
            + ": e2el.*, request_throughput.min, input_throughput.min, failed.pct,"
            + " client.* or server.* (an embedding has no TTFT, TPOT, ITL, output tokens or"
            + " goodput)";
    if (set.goodput().isPresent()) {
      throw new SettingsException(
          "Invalid gate "
              + source
              + GoodputSpec.KEY
              + "="
              + typed.get(GoodputSpec.KEY).trim()
              + ": no goodput "
              + accepted);
    }
    for (Gate g : set.gates()) {
      if (!GateMetric.appliesTo(g.metric(), endpoint.figures())) {
        throw new SettingsException(
            "Invalid gate "
                + source
                + g.name()
                + "="
                + typed.getOrDefault(g.name(), String.valueOf(g.limit())).trim()
                + ": expected a gate "
                + accepted);
      }
    }
  }

  /**
   * A capacity gate against a baseline compares capacities of one kind: concurrencies, or rates (a
   * capacity search checks its gates so).
   *
   * @throws SettingsException one line, before any load
   */
  public RunGates checkSameKindAsBaseline(SearchSettings search) {
    Optional<RunFigures.Capacity> answer = baselineFigures.capacity();
    boolean capacityGate = set.gates().stream().anyMatch(g -> g.metric() == GateMetric.CAPACITY);
    if (capacityGate && answer.isPresent() && answer.get().rate() != search.rate()) {
      throw new SettingsException(
          "-Dgate.capacity.min compares with the baseline's capacity, a "
              + (search.rate() ? "concurrency" : "request rate")
              + " (-Dbaseline="
              + baseline.orElse("")
              + "): this run's -Dsearch="
              + search.kind()
              + " finds a "
              + (search.rate() ? "request rate" : "concurrency"));
    }
    return this;
  }

  /** The gates line of the settings shown at the start and in summary.json; empty without gates. */
  public Optional<String> describe() {
    if (set.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        String.join(
                ", ",
                set.gates().stream()
                    .map(
                        g ->
                            g.name()
                                + (g.upperBound() ? " <= " : " >= ")
                                + g.limit()
                                + (g.byDefault() ? " (default)" : ""))
                    .toList())
            + baseline.map(b -> "; baseline " + b).orElse(""));
  }
}
