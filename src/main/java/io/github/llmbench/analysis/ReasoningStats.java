package io.github.llmbench.analysis;

import io.github.llmbench.records.Reasoning;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * A level's reasoning, over its completed requests whose streams thought before answering: the time
 * to the first output token (TTFO) and the reasoning tokens. Pure.
 *
 * @param requests completed requests that reasoned
 * @param answered those of them that answered after thinking (have a TTFO)
 * @param ttfo their TTFO, in ms
 * @param thinkingMs TTFO - TTFT of each: how long the thinking streamed
 * @param reasoningTokens mean reasoning tokens per request
 * @param tokensFrom where the counts came from, the least exact source of any ({@link
 *     Reasoning#USAGE}, then {@link Reasoning#TOKENIZER}, then {@link Reasoning#CHUNKS})
 */
public record ReasoningStats(
    int requests,
    int answered,
    LatencyStats ttfo,
    LatencyStats thinkingMs,
    double reasoningTokens,
    String tokensFrom) {

  public static final ReasoningStats NONE =
      new ReasoningStats(
          0, 0, LatencyStats.EMPTY, LatencyStats.EMPTY, Double.NaN, Reasoning.CHUNKS);

  public boolean isEmpty() {
    return requests == 0;
  }

  public static ReasoningStats of(List<RequestRecord> records) {
    List<Double> ttfo = new ArrayList<>();
    List<Double> thinking = new ArrayList<>();
    long tokens = 0;
    int n = 0;
    List<String> exactFirst = List.of(Reasoning.USAGE, Reasoning.TOKENIZER, Reasoning.CHUNKS);
    int weakest = 0;
    for (RequestRecord r : records) {
      Reasoning reasoning = r.reasoning();
      if (!r.ok() || reasoning == null) {
        continue;
      }
      n++;
      tokens += reasoning.tokens();
      weakest = Math.max(weakest, Math.max(0, exactFirst.indexOf(reasoning.tokensFrom())));
      Double t = reasoning.ttfoMs();
      if (t != null) {
        ttfo.add(t);
        if (r.ttftMs() != null) {
          thinking.add(t - r.ttftMs());
        }
      }
    }
    if (n == 0) {
      return NONE;
    }
    return new ReasoningStats(
        n,
        ttfo.size(),
        LatencyStats.of(ttfo),
        LatencyStats.of(thinking),
        tokens / (double) n,
        exactFirst.get(weakest));
  }
}
