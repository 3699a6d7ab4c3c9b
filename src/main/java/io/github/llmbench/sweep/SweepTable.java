package io.github.llmbench.sweep;

import io.github.llmbench.analysis.SweepFigures;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.SweepGrid;
import io.github.llmbench.gates.LevelFigures;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.settings.SweepSettings;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Point;
import io.github.llmbench.summary.SweepSummary.PointLevel;
import io.github.llmbench.summary.SweepSummary.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A sweep's combinations and where each stands: pending, done (its run's summary read back) or
 * failed (why, and its server's last lines); written as the sweep's {@link SweepSummary} with the
 * figures across the done ones ({@link SweepFigures}). A resumed sweep starts from its summary: a
 * combination done there, whose run's summary is still in place, is kept.
 */
final class SweepTable {

  /**
   * One combination: a server's parameters and the workload's settings.
   *
   * @param index from 1, in the sweep's order (the server's parameters vary slowest)
   */
  record Spec(int index, Map<String, String> server, Map<String, String> workload) {
    /** Its settings, e.g. {@code max_num_seqs=64,input.len=128}; empty for a sweep of one. */
    String name() {
      Map<String, String> all = new LinkedHashMap<>(server);
      all.putAll(workload);
      return SweepGrid.name(all);
    }
  }

  private static final LatencyFigure TPOT_MEAN = LatencyFigure.parse("tpot.mean").orElseThrow();
  private static final LatencyFigure TPOT_P99 = LatencyFigure.parse("tpot.p99").orElseThrow();
  private static final LatencyFigure TTFT_MEAN = LatencyFigure.parse("ttft.mean").orElseThrow();
  private static final LatencyFigure TTFT_P99 = LatencyFigure.parse("ttft.p99").orElseThrow();
  private static final LatencyFigure E2EL_MEAN = LatencyFigure.parse("e2el.mean").orElseThrow();

  private final SweepSettings sweep;
  private final String command;
  private final Path folder;
  private final List<Spec> specs;
  private final Map<Integer, Point> points = new LinkedHashMap<>();
  private final Map<Integer, Summary> summaries = new LinkedHashMap<>();

  private SweepTable(SweepSettings sweep, String command, Path folder, List<Spec> specs) {
    this.sweep = sweep;
    this.command = command;
    this.folder = folder;
    this.specs = List.copyOf(specs);
  }

  /** The table of {@code sweep}'s combinations, those a resumed sweep finished kept. */
  static SweepTable of(SweepSettings sweep, Optional<String> apiKey, Path folder) {
    List<Spec> specs = new ArrayList<>();
    for (Map<String, String> server : sweep.serverCombinations()) {
      for (Map<String, String> workload : sweep.workloadCombinations()) {
        specs.add(new Spec(specs.size() + 1, server, workload));
      }
    }
    String command =
        sweep.serve().map(s -> SweepSummary.withoutSecrets(s.command(), apiKey)).orElse(null);
    SweepTable t = new SweepTable(sweep, command, folder, specs);
    Map<String, Point> before = t.previousPoints();
    for (Spec spec : specs) {
      Point p = before.get(spec.name());
      Optional<Summary> s =
          p == null || p.status() != Status.done ? Optional.empty() : t.runSummary(p.run());
      if (s.isPresent()) {
        t.points.put(spec.index(), p.withIndex(spec.index()));
        t.summaries.put(spec.index(), s.get());
      } else {
        t.points.put(spec.index(), point(spec, Status.pending, null, null, null, null, null));
      }
    }
    return t;
  }

  /** The points of the summary a resumed sweep left, by name (none for a new sweep). */
  private Map<String, Point> previousPoints() {
    Map<String, Point> out = new LinkedHashMap<>();
    Path file = folder.resolve(SweepSummary.FILE);
    if (sweep.resume().isPresent() && Files.isRegularFile(file)) {
      SweepSummary.read(file).sweep().points().forEach(p -> out.put(p.name(), p));
    }
    return out;
  }

  List<Spec> specs() {
    return specs;
  }

  /** How many combinations are done. */
  int done() {
    return summaries.size();
  }

  /** The combinations of the server's parameters {@code server} not done yet. */
  List<Spec> pending(Map<String, String> server) {
    return specs.stream()
        .filter(s -> s.server().equals(server) && !summaries.containsKey(s.index()))
        .toList();
  }

  /** Records that {@code spec} did not run: {@code why}, its server's last lines. */
  void failed(Spec spec, Status status, String why, List<String> logTail, String log) {
    points.put(spec.index(), point(spec, status, why, logTail, log, null, null));
    write();
  }

  /** Records {@code spec}'s run: done when it left a summary, else failed. */
  void ran(Spec spec, SweepRun.RunResult r, Optional<String> log) {
    String run = r.runFolder().map(f -> folder.relativize(f).toString()).orElse(null);
    Optional<Summary> s = run == null ? Optional.empty() : runSummary(run);
    if (s.isPresent()) {
      summaries.put(spec.index(), s.get());
      points.put(
          spec.index(), point(spec, Status.done, null, null, log.orElse(null), run, r.exitCode()));
    } else {
      points.put(
          spec.index(),
          point(
              spec,
              Status.run_failed,
              "its run ended with status " + r.exitCode() + " and no summary.json",
              null,
              log.orElse(null),
              run,
              r.exitCode()));
    }
    write();
  }

  /** Records that {@code spec}'s server exited during its run (its figures are kept). */
  void serverDied(Spec spec, int code, List<String> logTail) {
    points.put(
        spec.index(),
        points
            .get(spec.index())
            .withError("the server exited with code " + code + " during this run", logTail));
    write();
  }

  /** 0 when every combination ran and passed; else the first non-zero run's status, or 2. */
  int exitStatus() {
    for (Point p : points.values()) {
      if (p.status() != Status.done) {
        return SweepRun.EXIT_FAILED;
      }
    }
    return points.values().stream()
        .map(Point::exitCode)
        .filter(c -> c != null && c != 0)
        .findFirst()
        .orElse(0);
  }

  /** The summary with the figures across the done combinations, written to the sweep's folder. */
  SweepSummary write() {
    List<SweepFigures.Candidate> candidates = new ArrayList<>();
    List<Integer> owners = new ArrayList<>();
    List<LevelSummary> levelSummaries = new ArrayList<>();
    summaries.forEach(
        (index, s) ->
            s.measuredLevels()
                .forEach(
                    (tag, level) -> {
                      candidates.add(candidate(points.get(index), tag, level));
                      owners.add(index);
                      levelSummaries.add(level);
                    }));
    SweepFigures figures = SweepFigures.of(candidates, sweep.slo());
    List<Point> out = new ArrayList<>();
    for (Point p : points.values()) {
      Map<String, PointLevel> levels = new LinkedHashMap<>();
      for (int i = 0; i < candidates.size(); i++) {
        if (owners.get(i) == p.index()) {
          levels.put(candidates.get(i).level(), pointLevel(figures, i, levelSummaries.get(i)));
        }
      }
      out.add(p.withLevels(levels));
    }
    Map<String, Double> slo = new LinkedHashMap<>();
    sweep.slo().forEach((f, v) -> slo.put(f.key(), v));
    SweepSummary summary =
        new SweepSummary(
            new SweepSummary.Sweep(
                command,
                sweep.workload().zipped()
                        || sweep.serve().map(s -> s.params().zipped()).orElse(false)
                    ? "zip"
                    : "grid",
                sweep.serve().map(s -> s.params().axes()).orElse(Map.of()),
                sweep.workload().axes(),
                slo,
                sweep.gpus(),
                out,
                figures.frontier().frontier().stream().map(f -> f.name()).toList(),
                figures
                    .best()
                    .map(
                        b ->
                            new SweepSummary.Best(b.combination(), b.level(), b.outputThroughput()))
                    .orElse(null)));
    summary.write(folder.resolve(SweepSummary.FILE));
    return summary;
  }

  private SweepFigures.Candidate candidate(Point p, String tag, LevelSummary level) {
    Map<SloFigure, Double> slo = LevelFigures.ofSummary(level).slo();
    return new SweepFigures.Candidate(
        p.name(),
        tag,
        level.figures().outputThroughput(),
        level.figures().latency(TPOT_MEAN),
        slo,
        sweep.gpusOf(p.server()));
  }

  private static PointLevel pointLevel(SweepFigures figures, int i, LevelSummary level) {
    SweepFigures.Candidate c = figures.candidates().get(i);
    Map<SloFigure, Double> f = c.figures();
    return new PointLevel(
        level.figures().completed(),
        level.figures().failed(),
        c.outputThroughput(),
        figures.point(i).throughput(),
        finite(figures.point(i).interactivity()),
        finite(f.get(TTFT_MEAN)),
        finite(f.get(TTFT_P99)),
        finite(f.get(TPOT_MEAN)),
        finite(f.get(TPOT_P99)),
        finite(f.get(E2EL_MEAN)),
        figures.onFrontier(i),
        c.meets(figures.slo()));
  }

  private static Double finite(Double v) {
    return v != null && Double.isFinite(v) ? v : null;
  }

  /** The summary of the run in {@code run} (relative to the sweep's folder), if it has one. */
  private Optional<Summary> runSummary(String run) {
    Optional<Path> file = RunFiles.summaryOf(folder.resolve(run));
    try {
      return file.isPresent() ? Optional.of(Summary.read(file.get())) : Optional.empty();
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Point point(
      Spec spec,
      Status status,
      String error,
      List<String> tail,
      String log,
      String run,
      Integer code) {
    return new Point(
        spec.index(),
        spec.name(),
        spec.server(),
        spec.workload(),
        status,
        error,
        tail,
        log,
        run,
        code,
        null);
  }
}
