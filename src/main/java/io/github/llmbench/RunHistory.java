package io.github.llmbench;

import io.github.llmbench.gates.GateResult;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryGate;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.ReportSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.summary.Summary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run's part in {@code -Dhistory}: its line, the {@code -Dgate.history} verdicts on its key's
 * series with it appended, and the line appended to {@code history.jsonl} once the report is
 * written. A history that cannot be read or written costs a warning line, never the run.
 */
final class RunHistory {
  static final RunHistory NONE = new RunHistory(Optional.empty(), Optional.empty());

  private final Optional<Path> dir;
  private final Optional<HistoryGate> gate;

  /** The history gate's lines, printed after the report (whose gates block has its verdicts). */
  private final StringBuilder gateText = new StringBuilder();

  private RunHistory(Optional<Path> dir, Optional<HistoryGate> gate) {
    this.dir = dir;
    this.gate = gate;
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
    return new RunHistory(h.dir(), gate);
  }

  /** This run's line, or empty without {@code -Dhistory}. */
  Optional<HistoryLine> line(Path runDir, Summary summary) {
    return dir.map(
        d ->
            HistoryLine.of(
                runDir.getFileName().toString(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
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
