package io.github.llmbench.report.section;

import io.github.llmbench.analysis.ReasoningStats;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.Reasoning;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * A level whose answers thought first (a console block per level, a page table): the time to the
 * first output token (TTFO, after the thinking) beside the result block's TTFT (the first token of
 * either kind, as vLLM's), and the reasoning tokens. Empty when no request reasoned.
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
public final class ReasoningSection implements ReportSection {
  ReasoningSection() {}

  private static String format(ReasoningStats r, String level) {
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
        Numbers.f2(r.reasoningTokens())
            + switch (r.tokensFrom()) {
              case Reasoning.USAGE -> " (the server's usage)";
              case Reasoning.TOKENIZER -> " (counted with the local tokenizer)";
              default -> " (counted from chunks)";
            });
    if (r.answered() > 0) {
      ServingResultBlock.labelled(sb, "Mean TTFO (ms):", Numbers.f2(r.ttfo().mean()));
      ServingResultBlock.labelled(sb, "Median TTFO (ms):", Numbers.f2(r.ttfo().median()));
      ServingResultBlock.labelled(sb, "P90 TTFO (ms):", Numbers.f2(r.ttfo().value(Statistic.P90)));
      ServingResultBlock.labelled(sb, "P99 TTFO (ms):", Numbers.f2(r.ttfo().value(Statistic.P99)));
      ServingResultBlock.labelled(
          sb, "Mean thinking time (ms):", Numbers.f2(r.thinkingMs().mean()));
    }
    return sb.toString();
  }

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(l -> !l.reasoning().isEmpty());
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l.reasoning(), several ? l.name() : null);
  }

  /** Per level, TTFO and reasoning tokens of the requests that thought before answering. */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<List<Object>> rows = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      ReasoningStats r = l.reasoning();
      if (r.isEmpty()) {
        continue;
      }
      rows.add(
          PagePart.row(
              l.name(),
              r.requests(),
              r.answered(),
              ifAnswered(r, r.ttfo().mean()),
              ifAnswered(r, r.ttfo().median()),
              ifAnswered(r, r.ttfo().value(Statistic.P90)),
              ifAnswered(r, r.ttfo().value(Statistic.P99)),
              ifAnswered(r, r.thinkingMs().mean()),
              Numbers.f2(r.reasoningTokens()) + " (" + r.tokensFrom() + ")"));
    }
    Table table =
        new Table(
            "Reasoning: time to the first output token (TTFO) after the thinking",
            List.of(
                "Level",
                "Reasoned",
                "Answered",
                "Mean TTFO (ms)",
                "Median TTFO (ms)",
                "P90 TTFO (ms)",
                "P99 TTFO (ms)",
                "Mean thinking (ms)",
                "Mean reasoning tokens"),
            rows);
    return List.of(
        new PagePart(
            "llm-reasoning",
            "Reasoning",
            List.of(
                table,
                Note.kit(
                    "TTFT (the tables above) is the first token of either kind, as"
                        + " vLLM's; TTFO the first answer token (docs/metrics.md)."))));
  }

  /**
   * A TTFO or thinking figure, empty when no request that reasoned answered: their stats are then
   * empty (zeros), which the console leaves out too.
   */
  private static String ifAnswered(ReasoningStats r, double v) {
    return r.answered() == 0 ? "" : Numbers.f2(v);
  }
}
