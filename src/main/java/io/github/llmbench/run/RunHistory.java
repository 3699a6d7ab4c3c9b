package io.github.llmbench.run;

import io.github.llmbench.analysis.Noise;
import io.github.llmbench.gates.GateNoise;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryGate;
import io.github.llmbench.history.HistoryKey;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.history.HistoryNoise;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Target;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.InjectorSettings;
import io.github.llmbench.settings.ReportSettings;
import io.github.llmbench.settings.SettingsDescription;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A run's part in {@code -Dhistory}: its line, the {@code -Dgate.history} verdicts on its key's
 * series with it appended, and the line appended to {@code history.jsonl} once the report is
 * written. A history that cannot be read or written costs a warning line, never the run.
 */
final class RunHistory {
  private final Optional<Path> dir;
  private final Optional<HistoryGate> gate;

  /** This run's key: known once the server's model and the levels are (before the load). */
  private final Optional<HistoryKey> key;

  /** The history gate's lines, printed after the report (whose gates block has its verdicts). */
  private final StringBuilder gateText = new StringBuilder();

  private RunHistory(Optional<Path> dir, Optional<HistoryGate> gate, Optional<HistoryKey> key) {
    this.dir = dir;
    this.gate = gate;
    this.key = key;
  }

  /**
   * The key of a run of these settings against this server: what its summary will say (the backend,
   * the model, the endpoint and the settings' lines as {@link RunEnd}'s {@code RunInfo} has them;
   * the measured levels in plan order).
   */
  static HistoryKey key(BenchSettings settings, Target target, List<Phase> phases, RunGates gates) {
    List<String> levels = LoadPlan.measuredLevels(phases);
    return HistoryKey.of(
        new HistoryKey.Testbed(
            target.embedded()
                ? RunInfo.SIMULATOR_BACKEND
                : "openai-" + settings.server().api().id(),
            target.model(),
            settings.server().api().path()),
        SettingsDescription.of(settings, gates.describe()),
        levels);
  }

  /** This history for a run of {@code key}. */
  RunHistory forKey(HistoryKey runKey) {
    return new RunHistory(dir, gate, Optional.of(runKey));
  }

  /**
   * The noise of each level's figures learned from this key's earlier runs, for the relative gates;
   * {@link GateNoise#NONE} without a history, and, with too few runs, after a line saying so (when
   * {@code relativeGates}).
   */
  GateNoise noise(boolean relativeGates, PrintStream out) {
    if (dir.isEmpty() || key.isEmpty() || !relativeGates) {
      return GateNoise.NONE;
    }
    String id = key.get().id();
    List<HistoryLine> lines;
    try {
      lines = HistoryFile.read(dir.get()).lines();
    } catch (IOException | RuntimeException e) {
      out.println(
          "gatling-llm-bench: the history cannot be read, "
              + HistoryNoise.FALLBACK
              + ": "
              + e.getMessage());
      return GateNoise.NONE;
    }
    if (!HistoryNoise.enough(lines, id)) {
      out.println(HistoryNoise.tooFew(lines, id));
    }
    // each figure's noise found once (its segment's change points are a permutation test): the
    // plan before the load and the gates after it ask for the same ones
    Map<String, Optional<Noise>> learned = new ConcurrentHashMap<>();
    return (level, metric) ->
        learned.computeIfAbsent(
            level + " " + metric.key(), k -> HistoryNoise.of(lines, id, level, metric.key()));
  }

  /**
   * The history's settings, {@code -Dgate.history} parsed.
   *
   * @throws SettingsException one line, before any load
   */
  static RunHistory of(BenchSettings settings) {
    ReportSettings.History h = settings.report().history();
    Optional<HistoryGate> gate;
    try {
      gate = h.gate().map(HistoryGate::parse);
    } catch (IllegalArgumentException e) {
      throw new SettingsException(e.getMessage());
    }
    if (gate.isPresent() && h.dir().isEmpty()) {
      throw new SettingsException(
          HistoryGate.SETTING
              + " needs the history it judges on: -D"
              + ReportSettings.HISTORY.name()
              + "=<folder> (a CI cache or artefact that keeps it between runs)");
    }
    if (h.dir().isPresent() && settings.injector().sharded()) {
      // a share's figures are not the load's: its line would sit in the whole load's series
      throw new SettingsException(
          "-D"
              + ReportSettings.HISTORY.name()
              + " with -D"
              + InjectorSettings.INJECTOR.name()
              + "="
              + settings.injector()
              + ": one injector of several measures a share of the load; keep the history of"
              + " runs from one injector");
    }
    return new RunHistory(h.dir(), gate, Optional.empty());
  }

  /** This run's line, or empty without {@code -Dhistory}. */
  Optional<HistoryLine> line(Path runDir, Summary summary) {
    return dir.map(
        d ->
            HistoryLine.of(
                runDir.getFileName().toString(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                key.orElseGet(() -> HistoryKey.of(summary)),
                summary));
  }

  /**
   * The history gate's results on this run (the series too short to judge are left out), its lines
   * printed; empty without the gate.
   */
  List<GateResult> check(Optional<HistoryLine> line, PrintStream out) {
    if (gate.isEmpty() || line.isEmpty()) {
      return List.of();
    }
    HistoryFile.Read read;
    try {
      read = HistoryFile.read(dir.orElseThrow());
    } catch (IOException | RuntimeException e) {
      out.println(
          "gatling-llm-bench: -Dgate.history not judged, the history cannot be read: "
              + e.getMessage());
      return List.of();
    }
    gateText
        .append("History gate (key ")
        .append(line.get().historyKey().describe())
        .append(", ")
        .append(read.ofKey(line.get().key()).size())
        .append(" earlier run(s)")
        .append(read.notes())
        .append("):\n");
    List<GateResult> results = new ArrayList<>();
    for (HistoryGate.Verdict v : gate.get().check(read.lines(), line.get())) {
      gateText.append("  ").append(v.why()).append('\n');
      if (v.judged()) {
        results.add(v.result());
      }
    }
    return results;
  }

  /** Prints the history gate's lines and appends this run's line; a failure is one warning line. */
  void append(Optional<HistoryLine> line, PrintStream out) {
    if (line.isEmpty()) {
      return;
    }
    out.print(gateText);
    Path d = dir.orElseThrow();
    try {
      HistoryFile.append(d, line.get());
      out.println("History:             " + HistoryFile.of(d) + " (key " + line.get().key() + ")");
    } catch (IOException | RuntimeException e) {
      out.println(
          "gatling-llm-bench: WARNING: this run was not added to the history "
              + HistoryFile.of(d)
              + ": "
              + e.getMessage());
    }
  }
}
