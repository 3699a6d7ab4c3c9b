package io.github.llmbench.compare;

import io.github.llmbench.analysis.Noise;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryKey;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.history.HistoryNoise;
import io.github.llmbench.summary.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The history {@code compare --history DIR} learns each pair's run-to-run noise from: for a run and
 * the baseline of one key, the noise of each figure at each level over that key's earlier runs
 * ({@link HistoryNoise}, {@link io.github.llmbench.analysis.NoiseModel#fromRuns}), the compared
 * runs' own lines left out so the noise is independent of the pair. Runs of different keys, or a
 * key with too few runs, get none, and say why. Pure: the history is read by the caller.
 *
 * @param source the history file as named in the lines ({@code perf-history/history.jsonl}); null
 *     for {@link #NONE}
 * @param history the history as read
 * @param keys each compared run's key, in the runs' order (empty for {@link #NONE})
 * @param earlier the history's runs, the compared runs' own lines left out
 */
public record CompareHistory(
    String source, HistoryFile.Read history, List<RunKey> keys, List<HistoryLine> earlier) {

  /** No history given: every pair judged as without one. */
  public static final CompareHistory NONE =
      new CompareHistory(null, HistoryFile.Read.EMPTY, List.of(), List.of());

  public CompareHistory {
    keys = List.copyOf(keys);
    earlier = List.copyOf(earlier);
  }

  /**
   * A compared run's key.
   *
   * @param key its key
   * @param fromLine whether it is the key of the run's own line in the history (found by its
   *     folder's name); else it is made from the run's {@code summary.json}
   */
  public record RunKey(HistoryKey key, boolean fromLine) {}

  /** What the history gives one figure of one pair. */
  public sealed interface PairNoise {}

  /** No history was given. */
  public record NoHistory() implements PairNoise {}

  /** The noise learned from the history. */
  public record Learned(Noise noise) implements PairNoise {}

  /**
   * None for this figure of this pair.
   *
   * @param why the reason, as a verdict line shows it
   */
  public record Unavailable(String why) implements PairNoise {}

  /** A compared run: its folder's name (null when unknown) and its summary. */
  public record Run(String folder, Summary summary) {}

  /**
   * The history for these runs.
   *
   * @param source the history file, as named in the lines
   */
  public static CompareHistory of(String source, HistoryFile.Read history, List<Run> runs) {
    List<RunKey> keys = new ArrayList<>();
    Set<String> compared = new TreeSet<>();
    for (Run r : runs) {
      Optional<HistoryLine> own = ownLine(history.lines(), r.folder());
      keys.add(
          own.map(l -> new RunKey(l.historyKey(), true))
              .orElseGet(() -> new RunKey(HistoryKey.of(r.summary()), false)));
      if (r.folder() != null) {
        compared.add(r.folder());
      }
    }
    List<HistoryLine> earlier =
        history.lines().stream().filter(l -> !compared.contains(l.run())).toList();
    return new CompareHistory(source, history, keys, earlier);
  }

  /** The run's own line in the history: the newest of its folder's name. */
  private static Optional<HistoryLine> ownLine(List<HistoryLine> lines, String folder) {
    HistoryLine own = null;
    for (HistoryLine l : lines) {
      if (folder != null && folder.equals(l.run())) {
        own = l;
      }
    }
    return Optional.ofNullable(own);
  }

  /** Whether a history was given. */
  public boolean given() {
    return source != null;
  }

  /**
   * The noise of {@code figure} (the history's name, {@code tpot.mean}) at {@code level} for run
   * {@code run} (its index, from 0; 1 or more) against the baseline.
   */
  public PairNoise noise(int run, String level, String figure) {
    if (!given()) {
      return new NoHistory();
    }
    Optional<String> differ = keysDiffer(run);
    if (differ.isPresent()) {
      return new Unavailable(differ.get());
    }
    String id = keys.get(0).key().id();
    Optional<Noise> n = HistoryNoise.of(earlier, id, level, figure);
    if (n.isPresent()) {
      return new Learned(n.get());
    }
    return new Unavailable(
        "the history has "
            + runsWith(id, level, figure)
            + " run(s) of key "
            + id
            + " with "
            + level
            + " "
            + figure
            + " (the compared runs left out), "
            + HistoryNoise.MIN_RUNS
            + " needed to learn the noise");
  }

  /** Why run {@code run} and the baseline get no noise from the history: their keys differ. */
  private Optional<String> keysDiffer(int run) {
    HistoryKey a = keys.get(0).key();
    HistoryKey b = keys.get(run).key();
    if (a.id().equals(b.id())) {
      return Optional.empty();
    }
    return Optional.of(
        "keys differ ([1] "
            + a.id()
            + ", ["
            + (run + 1)
            + "] "
            + b.id()
            + ": "
            + String.join(", ", differingFields(a.fields(), b.fields()))
            + "), the history gives this pair no noise");
  }

  private static List<String> differingFields(Map<String, String> a, Map<String, String> b) {
    Set<String> names = new TreeSet<>(a.keySet());
    names.addAll(b.keySet());
    return names.stream().filter(n -> !Objects.equals(a.get(n), b.get(n))).toList();
  }

  /** How many earlier runs of the key have the figure at the level. */
  private long runsWith(String id, String level, String figure) {
    return earlier.stream()
        .filter(l -> id.equals(l.key()))
        .filter(l -> l.trials(level, figure).stream().anyMatch(v -> v != null && v > 0))
        .count();
  }

  /**
   * What the history is and, per run against the baseline, whether it supplies the noise: the
   * console's lines under the runs and the page's note.
   */
  public List<String> lines() {
    if (!given()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    long keyCount = history.lines().stream().map(HistoryLine::key).distinct().count();
    out.add(
        "History "
            + source
            + ": "
            + history.lines().size()
            + " run(s), "
            + keyCount
            + " key(s)"
            + history.notes()
            + "; the compared runs' own lines left out of the noise");
    for (int i = 0; i < keys.size(); i++) {
      out.add(
          "  ["
              + (i + 1)
              + "] key "
              + keys.get(i).key().id()
              + (keys.get(i).fromLine()
                  ? " (its line in the history)"
                  : " (from its summary.json: not in the history)"));
    }
    for (int i = 1; i < keys.size(); i++) {
      Optional<String> differ = keysDiffer(i);
      String pair = "  [" + (i + 1) + "] against [1]: ";
      if (differ.isPresent()) {
        out.add(pair + differ.get() + "; judged as without a history");
        continue;
      }
      RunKey k = keys.get(0);
      String id = k.key().id();
      long runs = earlier.stream().filter(l -> id.equals(l.key())).count();
      out.add(
          pair
              + "key "
              + k.key().describe()
              + ", "
              + runs
              + " earlier run(s) of it"
              + (runs >= HistoryNoise.MIN_RUNS
                  ? ": the pair is judged with their noise"
                  : ", " + HistoryNoise.MIN_RUNS + " needed: judged as without a history"));
    }
    return out;
  }
}
