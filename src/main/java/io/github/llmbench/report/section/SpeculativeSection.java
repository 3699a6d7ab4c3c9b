package io.github.llmbench.report.section;

import static io.github.llmbench.analysis.SpeculativeFigures.ACCEPTANCE_RATE;
import static io.github.llmbench.analysis.SpeculativeFigures.ACCEPTED_TOKENS;
import static io.github.llmbench.analysis.SpeculativeFigures.DRAFTS;
import static io.github.llmbench.analysis.SpeculativeFigures.DRAFT_TOKENS;
import static io.github.llmbench.analysis.SpeculativeFigures.MEAN_ACCEPTED_LENGTH;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServerFigure;
import io.github.llmbench.analysis.ServerFigureValues;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Speculative decoding per level (a console block per level, a page table): the server's acceptance
 * rate, mean accepted length and drafts ({@code vllm:spec_decode_*}, SGLang's {@code
 * spec_accept_*}) beside the client's tokens per chunk, which is how the client sees the tokens a
 * step kept. Silent where the server reports no speculative decoding.
 *
 * <pre>
 * ------------------- Speculative decoding -------------------
 * Acceptance rate (%):                     50.90
 * Mean accepted length:                    2.50
 * Drafts:                                  1000 (2951 tokens, 1502 accepted)
 * Client tokens per chunk (mean):          2.42
 * </pre>
 */
public final class SpeculativeSection implements ReportSection {
  SpeculativeSection() {}

  /** The page table's server columns, in order, between the level and the client's chunks. */
  private static final List<ServerFigure> COLUMNS =
      List.of(ACCEPTANCE_RATE, MEAN_ACCEPTED_LENGTH, DRAFTS, DRAFT_TOKENS, ACCEPTED_TOKENS);

  private static boolean has(RunAnalysis.Level l) {
    ServerFigureValues s = l.server().level();
    return s.get(ACCEPTANCE_RATE) != null || s.get(MEAN_ACCEPTED_LENGTH) != null;
  }

  /** A level's block, empty where the server reports no speculative decoding. */
  private static String format(RunAnalysis.Level l, String level) {
    if (!has(l)) {
      return "";
    }
    ServerFigureValues s = l.server().level();
    String title =
        level == null || level.isBlank()
            ? " Speculative decoding "
            : " Speculative decoding (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    ServingResultBlock.labelled(sb, ACCEPTANCE_RATE.label() + ":", percent(s.get(ACCEPTANCE_RATE)));
    ServingResultBlock.labelled(
        sb, MEAN_ACCEPTED_LENGTH.label() + ":", Numbers.serverValue(s.get(MEAN_ACCEPTED_LENGTH)));
    if (s.get(DRAFTS) != null) {
      ServingResultBlock.labelled(
          sb,
          DRAFTS.label() + ":",
          Numbers.serverValue(s.get(DRAFTS))
              + " ("
              + Numbers.serverValue(s.get(DRAFT_TOKENS))
              + " tokens, "
              + Numbers.serverValue(s.get(ACCEPTED_TOKENS))
              + " accepted)");
    }
    ServingResultBlock.labelled(
        sb, "Client tokens per chunk (mean):", Numbers.f2(l.chunks().perChunkMean()));
    return sb.toString();
  }

  private static String percent(Double rate) {
    return rate == null ? "-" : Numbers.f2(100 * rate);
  }

  /** A column's cell: the acceptance rate as a percentage, the others as the server reads them. */
  private static String cell(ServerFigure f, ServerFigureValues s) {
    return f.equals(ACCEPTANCE_RATE) ? percent(s.get(f)) : Numbers.serverValue(s.get(f));
  }

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(SpeculativeSection::has);
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l, several ? l.name() : null);
  }

  /** Per level, the server's acceptance beside the client's tokens per chunk. */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<List<Object>> rows = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      if (!has(l)) {
        continue;
      }
      ServerFigureValues s = l.server().level();
      List<Object> row = new ArrayList<>();
      row.add(l.name());
      COLUMNS.forEach(f -> row.add(cell(f, s)));
      row.add(Numbers.f2(l.chunks().perChunkMean()));
      rows.add(row);
    }
    List<String> headers = new ArrayList<>();
    headers.add("Level");
    COLUMNS.forEach(f -> headers.add(f.label()));
    headers.add("Client tokens per chunk");
    Table table =
        new Table(
            "Speculative decoding: the server's acceptance, the client's tokens per chunk",
            headers,
            rows);
    return List.of(
        new PagePart(
            "llm-speculative",
            "Speculative decoding",
            List.of(
                table,
                Note.kit(
                    "Acceptance rate: accepted over drafted tokens; mean accepted length: 1 +"
                        + " accepted per draft, as vllm bench serve prints them. A step streams"
                        + " what it kept in one chunk, so tokens per chunk follow the accepted"
                        + " length (docs/telemetry.md#speculative-decoding)."))));
  }
}
