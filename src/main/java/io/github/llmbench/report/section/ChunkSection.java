package io.github.llmbench.report.section;

import io.github.llmbench.analysis.ChunkTokens;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.Statistic;

/**
 * A level whose chunks carried several tokens each (console only): tokens per chunk and the ITL per
 * token, beside vLLM's per-chunk ITL of the result block. Empty when every chunk carried one token.
 *
 * <pre>
 * --------------------- Tokens per chunk ---------------------
 * Tokens per chunk (mean):                 2.00 (each request's tokens over its chunks)
 * Tokens per chunk (median/P99/max):       2.00 / 2.00 / 2.00
 * Mean ITL per token (ms):                 5.01
 * Median ITL per token (ms):               5.00
 * P99 ITL per token (ms):                  5.40
 * </pre>
 */
public final class ChunkSection implements ReportSection {
  ChunkSection() {}

  private static String format(ChunkTokens c, String level) {
    if (!c.severalPerChunk()) {
      return "";
    }
    String title =
        level == null || level.isBlank()
            ? " Tokens per chunk "
            : " Tokens per chunk (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    ServingResultBlock.labelled(
        sb,
        "Tokens per chunk (mean):",
        Numbers.f2(c.perChunkMean())
            + (c.countedPerChunk()
                ? " (each chunk counted with the local tokenizer)"
                : " (each request's tokens over its chunks)"));
    ServingResultBlock.labelled(
        sb,
        "Tokens per chunk (median/P99/max):",
        Numbers.f2(c.perChunkMedian())
            + " / "
            + Numbers.f2(c.perChunkP99())
            + " / "
            + Numbers.f2(c.perChunkMax()));
    ServingResultBlock.labelled(sb, "Mean ITL per token (ms):", Numbers.f2(c.itlPerToken().mean()));
    ServingResultBlock.labelled(
        sb, "Median ITL per token (ms):", Numbers.f2(c.itlPerToken().median()));
    ServingResultBlock.labelled(
        sb, "P99 ITL per token (ms):", Numbers.f2(c.itlPerToken().value(Statistic.P99)));
    sb.append(
        "(the result block's ITL is per chunk, as vLLM's; here a chunk of n tokens counts as n gaps"
            + " of its ITL / n)\n");
    return sb.toString();
  }

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return true;
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l.chunks(), several ? l.name() : null);
  }
}
