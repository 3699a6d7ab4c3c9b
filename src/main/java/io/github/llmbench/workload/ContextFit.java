package io.github.llmbench.workload;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Whether a workload's longest request fits the server's context (prompt + {@code max_tokens}),
 * checked before the load: a request that cannot fit fails at the server (llama.cpp: "request
 * exceeds the available context size"; vLLM: "This model's maximum context length is ..."), so a
 * run of them measures nothing.
 */
public final class ContextFit {
  private ContextFit() {}

  /**
   * The longest request's size, in {@code long}s: a sum of lengths near {@code int}'s top (a
   * conversation's last turn carries all the turns before it) cannot wrap round to a small or
   * negative number that seems to fit.
   *
   * @param promptTokens prompt tokens, chat template included when it is known
   */
  public record Longest(long promptTokens, long maxTokens) {
    public long total() {
      return Math.addExact(promptTokens, maxTokens);
    }

    /**
     * The last turn of a conversation of {@code turns} turns like this one: every earlier turn's
     * prompt and answer (at most {@code max_tokens} each), then its own.
     */
    public Longest lastTurnOf(int turns) {
      return new Longest(
          Math.addExact(
              Math.multiplyExact(turns, promptTokens), Math.multiplyExact(turns - 1L, maxTokens)),
          maxTokens);
    }
  }

  /**
   * The longest of {@code candidates}: their own token counts, else the server's count of their
   * text; empty when a candidate cannot be counted (no tokenizer).
   *
   * @param templateTokens tokens a chat request adds around its text (0 for completions)
   * @param maxTokensOverride {@code max_tokens} set for every request ({@code -Dextra.body}), if
   *     any
   */
  public static Optional<Longest> longest(
      List<RequestSpec> candidates,
      TokenCounter counter,
      int templateTokens,
      OptionalInt maxTokensOverride) {
    OptionalInt base = null; // the count of "" (a BOS token), asked for only when a text is counted
    Longest longest = null;
    for (RequestSpec r : candidates) {
      long prompt;
      if (r.promptTokens() >= 0) {
        prompt = r.promptTokens();
      } else {
        base = base == null ? counter.count("") : base;
        OptionalInt n = counter.count(r.promptText());
        if (n.isEmpty() || base.isEmpty()) {
          return Optional.empty();
        }
        prompt = (long) n.getAsInt() - base.getAsInt();
      }
      Longest l = new Longest(prompt + templateTokens, maxTokensOverride.orElse(r.maxTokens()));
      if (longest == null || l.total() > longest.total()) {
        longest = l;
      }
    }
    return Optional.ofNullable(longest);
  }

  /**
   * The one-line error when the longest request does not fit, else empty.
   *
   * @param contextTokens the server's context per request
   * @param source where that number was read, e.g. "max_model_len of GET /v1/models"
   */
  public static Optional<String> problem(Longest longest, long contextTokens, String source) {
    if (longest.total() <= contextTokens) {
      return Optional.empty();
    }
    return Optional.of(
        "The longest request does not fit the server's context: "
            + longest.promptTokens()
            + " prompt tokens + max_tokens "
            + longest.maxTokens()
            + " = "
            + longest.total()
            + " tokens > "
            + contextTokens
            + " ("
            + source
            + "); lower -Dinput.len, -Dprefix.len, -Drange.ratio or -Doutput.len (or the dataset's longest entries), or give the server more context");
  }
}
