package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.List;

/**
 * The prefixes the run's prompts share on purpose ({@code -Dprefix.len}, {@code -Dprefix.groups}):
 * what a perfect prefix cache, one that never evicts, would serve of the prompt tokens sent.
 *
 * @param tokens tokens of each prefix (0: none)
 * @param groups distinct prefixes, taken in turn
 */
public record PrefixSharing(int tokens, int groups) {
  public static final PrefixSharing NONE = new PrefixSharing(0, 1);

  public PrefixSharing {
    if (tokens < 0 || groups < 1) {
      throw new IllegalArgumentException(
          "prefix of " + tokens + " tokens in " + groups + " groups");
    }
  }

  /**
   * The share of a level's prompt tokens (as the server counted them, its chat template's included)
   * a perfect cache would serve: every request's prefix but each group's first, which the first
   * measured level sends (the warmup's prompts have prefixes of their own).
   *
   * @param firstLevel whether this is the run's first measured level
   * @return null without a prefix, or when no request's prompt tokens are known
   */
  public Double idealHitRate(List<RequestRecord> records, boolean firstLevel) {
    if (tokens == 0) {
      return null;
    }
    long prompt = 0;
    int counted = 0;
    for (RequestRecord r : records) {
      Integer in = r.inputTokens();
      if (in != null && in > 0) {
        prompt += in;
        counted++;
      }
    }
    if (prompt == 0) {
      return null;
    }
    long misses = firstLevel ? Math.min(groups, counted) : 0;
    return (double) tokens * (counted - misses) / prompt;
  }
}
