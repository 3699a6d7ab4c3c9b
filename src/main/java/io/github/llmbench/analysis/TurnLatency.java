package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * TTFT by turn of a multi-turn run: turn k's prompt carries the k - 1 turns before it and their
 * answers, so its TTFT shows what a growing context (and a prefix cache that does or does not keep
 * it) costs. Pure; empty for records without turns.
 *
 * @param rows one per turn, in turn order
 */
public record TurnLatency(List<Row> rows) {

  public static final TurnLatency NONE = new TurnLatency(List.of());

  /**
   * One turn.
   *
   * @param turn 1 for the first
   * @param completed completed requests of that turn
   * @param failed failed requests of that turn
   * @param meanInputTokens mean of the server's prompt tokens of the completed ones, NaN when
   *     unknown
   */
  public record Row(
      int turn,
      int completed,
      int failed,
      double meanInputTokens,
      double ttftMeanMs,
      double ttftMedianMs,
      double ttftP99Ms) {}

  public TurnLatency {
    rows = List.copyOf(rows);
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The turns of a level's records (those that have one). */
  public static TurnLatency of(List<RequestRecord> records) {
    TreeMap<Integer, List<RequestRecord>> byTurn = new TreeMap<>();
    for (RequestRecord r : records) {
      if (r.origin() != null && r.origin().turn() > 0) {
        byTurn.computeIfAbsent(r.origin().turn(), t -> new ArrayList<>()).add(r);
      }
    }
    List<Row> rows = new ArrayList<>();
    byTurn.forEach(
        (turn, recs) -> {
          List<Double> ttft = new ArrayList<>();
          long inputSum = 0;
          int inputCount = 0;
          int failed = 0;
          for (RequestRecord r : recs) {
            if (!r.ok()) {
              failed++;
              continue;
            }
            ttft.add(r.ttftMs());
            if (r.inputTokens() != null) {
              inputSum += r.inputTokens();
              inputCount++;
            }
          }
          double mean = ttft.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
          rows.add(
              new Row(
                  turn,
                  ttft.size(),
                  failed,
                  inputCount == 0 ? Double.NaN : (double) inputSum / inputCount,
                  mean,
                  ttft.isEmpty() ? Double.NaN : Percentiles.percentile(ttft, 50),
                  ttft.isEmpty() ? Double.NaN : Percentiles.percentile(ttft, 99)));
        });
    return new TurnLatency(rows);
  }
}
