package io.github.llmbench.report;

import io.github.llmbench.analysis.ReasoningStats;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.Reasoning;

/**
 * The console block of a level whose answers thought first: the time to the first output token
 * (TTFO, after the thinking) beside the result block's TTFT (the first token of either kind, as
 * vLLM's), and the reasoning tokens. Empty when no request reasoned.
 *
 * <pre>
 * ------------------------ Reasoning -------------------------
 * Requests that reasoned:                  4 (4 answered)
 * Mean reasoning tokens:                   8.00 (counted from chunks)
 * Mean TTFO (ms):                          214.31
 * Median TTFO (ms):                        213.90
 * P90 TTFO (ms):                           220.11
 * P99 TTFO (ms):                           221.40
 * Mean thinking time (ms):                 170.02
 * </pre>
 */
public final class ReasoningBlock {
  private ReasoningBlock() {}

  public static String format(ReasoningStats r, String level) {
    if (r.isEmpty()) {
      return "";
    }
    String title = level == null || level.isBlank() ? " Reasoning " : " Reasoning (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    ServingResultBlock.labelled(
        sb, "Requests that reasoned:", r.requests() + " (" + r.answered() + " answered)");
    ServingResultBlock.labelled(
        sb,
        "Mean reasoning tokens:",
        ServingResultBlock.f2(r.reasoningTokens())
            + switch (r.tokensFrom()) {
              case Reasoning.USAGE -> " (the server's usage)";
              case Reasoning.TOKENIZER -> " (counted with the local tokenizer)";
              default -> " (counted from chunks)";
            });
    if (r.answered() > 0) {
      ServingResultBlock.labelled(sb, "Mean TTFO (ms):", ServingResultBlock.f2(r.ttfo().mean()));
      ServingResultBlock.labelled(
          sb, "Median TTFO (ms):", ServingResultBlock.f2(r.ttfo().median()));
      ServingResultBlock.labelled(
          sb, "P90 TTFO (ms):", ServingResultBlock.f2(r.ttfo().value(Statistic.P90)));
      ServingResultBlock.labelled(
          sb, "P99 TTFO (ms):", ServingResultBlock.f2(r.ttfo().value(Statistic.P99)));
      ServingResultBlock.labelled(
          sb, "Mean thinking time (ms):", ServingResultBlock.f2(r.thinkingMs().mean()));
    }
    return sb.toString();
  }
}
