package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * An interleaved A/B run's answer ({@code -Dcandidate.url}), {@code summary.json}'s {@code ab}: the
 * two servers, each pair's order, and per relative gate the pairs' log ratios, each look of the
 * sequential test and its decision.
 *
 * @param baseUrl server A, the base
 * @param candidateUrl server B, the candidate
 * @param level the level both ran, e.g. {@code c8}
 * @param trialSeconds each trial's length ({@code -Dduration})
 * @param pairs each pair that ran, in order
 * @param stoppedBy why no further pair ran: {@code decided}, {@code max pairs} (or {@code max
 *     blocks}), {@code budget}, or a server that failed to start
 * @param unit the sequential test's unit: {@code pair} (servers given by URL) or {@code block} (a
 *     block of pairs on servers the kit started afresh for it); the gates' log ratios, looks and
 *     counts are per unit. Null in files written before blocks: {@code pair}
 * @param blocks each block's fresh servers, in order; empty when the servers are given
 * @param serverLogs the folder of the started servers' logs ({@code server-a-1.log}, ...); null
 *     when the servers are given
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AbFigures(
    String baseUrl,
    String candidateUrl,
    String baseModel,
    String candidateModel,
    String level,
    int trialSeconds,
    List<Pair> pairs,
    List<GateTrack> gates,
    String stoppedBy,
    String unit,
    List<Block> blocks,
    String serverLogs)
    implements ModeFigures {

  public AbFigures {
    pairs = pairs == null ? List.of() : List.copyOf(pairs);
    gates = gates == null ? List.of() : List.copyOf(gates);
    unit = unit == null ? "pair" : unit;
    blocks = blocks == null ? List.of() : List.copyOf(blocks);
  }

  /**
   * A block of pairs on servers started for it alone (its pairs name it).
   *
   * @param block from 1
   * @param pidA the process started for A (with a shell, the shell's)
   * @param pidB the process started for B
   * @param readySeconds from the start of both to both ready
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Block(int block, long pidA, long pidB, double readySeconds) {}

  /**
   * A pair of trials.
   *
   * @param pair from 1
   * @param first the side that ran first: {@code A} or {@code B}
   * @param requestsA requests A's trial sent
   * @param requestsB requests B's trial sent
   * @param block the block of fresh servers it ran on; null where the servers are given
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Pair(int pair, String first, int requestsA, int requestsB, Integer block) {}

  /**
   * One relative gate judged on the pairs.
   *
   * @param gate the gate as named ({@code tpot.mean})
   * @param threshold the regression it must catch, e.g. 0.10
   * @param orientation the ratio the figures show, B/A for a latency, A/B for a throughput (bigger
   *     is worse either way)
   * @param alpha the false alarm rate it holds (1 - gate.confidence)
   * @param power its chance to fail a regression of the threshold
   * @param logRatios each unit's log ratio (a pair's, or a block's pooled figures'), oriented so
   *     that positive is B worse
   * @param looks the test's look after each unit
   * @param decision {@code FAIL}, {@code PASS} or {@code INCONCLUSIVE}
   * @param ratio the ratio over the pairs used (geometric mean)
   * @param low the interval's low end (null without one)
   * @param high the interval's high end (null without one)
   * @param pairsUsed the units (pairs, or blocks) the decision rests on
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record GateTrack(
      String gate,
      double threshold,
      String orientation,
      double alpha,
      double power,
      List<Double> logRatios,
      List<Look> looks,
      String decision,
      Double ratio,
      Double low,
      Double high,
      int pairsUsed) {
    public GateTrack {
      logRatios = logRatios == null ? List.of() : List.copyOf(logRatios);
      looks = looks == null ? List.of() : List.copyOf(looks);
    }
  }

  /**
   * The sequential test's look after a pair.
   *
   * @param pairs the pairs so far
   * @param ratio the running ratio
   * @param failAt the ratio beyond which it fails at this look; null before the first look
   * @param passAt the ratio below which it passes at this look; null before the first look
   * @param decision {@code CONTINUE}, {@code FAIL}, {@code PASS} or {@code INCONCLUSIVE}
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Look(int pairs, Double ratio, Double failAt, Double passAt, String decision) {}

  /** A figure for the file: null for NaN or an infinity (JSON has neither). */
  public static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }
}
