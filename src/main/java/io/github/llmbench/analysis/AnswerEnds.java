package io.github.llmbench.analysis;

import io.github.llmbench.records.FinishReasons;
import io.github.llmbench.records.RequestRecord;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a level's answers ended, by their streams' {@code finish_reason}: with {@code ignore_eos}
 * honoured every answer reaches its {@code max_tokens} ({@code length}); answers the model ended
 * ({@code stop}) mean the server ignored it (TGI has no such field), so output lengths are not the
 * asked ones and comparisons with other servers, or other runs, are skewed. Pure.
 *
 * @param okRequests the level's completed requests
 * @param byReason how many of them ended with each reason (those that said one), by name
 * @param endedByModel how many ended because the model ended them
 * @param meanOutputTokensOfThose their mean output tokens (NaN for none)
 */
public record AnswerEnds(
    int okRequests,
    Map<String, Integer> byReason,
    int endedByModel,
    double meanOutputTokensOfThose) {

  public static final AnswerEnds NONE = new AnswerEnds(0, Map.of(), 0, Double.NaN);

  public AnswerEnds {
    byReason = Collections.unmodifiableMap(new TreeMap<>(byReason));
  }

  public static AnswerEnds of(List<RequestRecord> records) {
    Map<String, Integer> by = new TreeMap<>();
    int ok = 0;
    int byModel = 0;
    long tokens = 0;
    for (RequestRecord r : records) {
      if (!r.ok()) {
        continue;
      }
      ok++;
      String reason = r.finishReason();
      if (reason != null) {
        by.merge(reason, 1, Integer::sum);
      }
      if (FinishReasons.endedByModel(reason)) {
        byModel++;
        tokens += r.outputTokens();
      }
    }
    return ok == 0
        ? NONE
        : new AnswerEnds(ok, by, byModel, byModel == 0 ? Double.NaN : tokens / (double) byModel);
  }

  /**
   * The guard line when the model ended some answers before their {@code max_tokens}, else null.
   */
  public String guard(String level) {
    if (endedByModel == 0) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "%d of %d answers at %s ended before max_tokens (finish_reason stop, %.0f output tokens on"
            + " average): the server did not honour ignore_eos, so output lengths are not the asked"
            + " ones; compare runs and servers on output tokens with care",
        endedByModel,
        okRequests,
        level,
        meanOutputTokensOfThose);
  }
}
