package io.github.llmbench.report.section;

import static io.github.llmbench.analysis.DisaggregatedFigures.DECODE_MS_MEAN;
import static io.github.llmbench.analysis.DisaggregatedFigures.PREFILL_MS_MEAN;
import static io.github.llmbench.analysis.DisaggregatedFigures.TRANSFERS;
import static io.github.llmbench.analysis.DisaggregatedFigures.TRANSFER_FAILURES;
import static io.github.llmbench.analysis.DisaggregatedFigures.TRANSFER_GB_PER_S;
import static io.github.llmbench.analysis.DisaggregatedFigures.TRANSFER_MB;
import static io.github.llmbench.analysis.DisaggregatedFigures.TRANSFER_MS_MEAN;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.ServerFigure;
import io.github.llmbench.analysis.ServerFigureValues;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Disaggregated serving per level (a console block per level, a page table): the KV transfers
 * between the prefill and the decode instances that the server reports (vLLM's NIXL connector,
 * SGLang's {@code kv_transfer_*}), its prefill and decode times, beside the client's mean TTFT,
 * which holds the transfer. Silent where the server reports no transfer.
 *
 * <pre>
 * ------------------- Disaggregated serving ------------------
 * KV transfers:                            40 (0 failed)
 * Mean KV transfer time (ms):              3.10
 * KV moved (MB):                           85.33 at 27.51 GB/s
 * Mean prefill / decode time (ms):         12.40 / 401.22
 * Client mean TTFT (ms):                   19.80
 * </pre>
 */
public final class DisaggregatedSection implements ReportSection {
  DisaggregatedSection() {}

  /** The page table's server columns, in order, between the level and the client's TTFT. */
  private static final List<ServerFigure> COLUMNS =
      List.of(
          TRANSFERS,
          TRANSFER_FAILURES,
          TRANSFER_MS_MEAN,
          TRANSFER_MB,
          TRANSFER_GB_PER_S,
          PREFILL_MS_MEAN,
          DECODE_MS_MEAN);

  private static boolean has(RunAnalysis.Level l) {
    Double transfers = l.server().level().get(TRANSFERS);
    return transfers != null && transfers > 0;
  }

  /** A level's block, empty where the server reports no KV transfer. */
  private static String format(RunAnalysis.Level l, String level) {
    if (!has(l)) {
      return "";
    }
    ServerFigureValues s = l.server().level();
    String title =
        level == null || level.isBlank()
            ? " Disaggregated serving "
            : " Disaggregated serving (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    ServingResultBlock.labelled(
        sb,
        TRANSFERS.label() + ":",
        Numbers.serverValue(s.get(TRANSFERS))
            + " ("
            + Numbers.serverValueOrDash(s.get(TRANSFER_FAILURES))
            + " failed)");
    ServingResultBlock.labelled(
        sb, "Mean KV transfer time (ms):", Numbers.serverValueOrDash(s.get(TRANSFER_MS_MEAN)));
    ServingResultBlock.labelled(
        sb,
        "KV moved (MB):",
        Numbers.serverValueOrDash(s.get(TRANSFER_MB))
            + " at "
            + Numbers.serverValueOrDash(s.get(TRANSFER_GB_PER_S))
            + " GB/s");
    ServingResultBlock.labelled(
        sb,
        "Mean prefill / decode time (ms):",
        Numbers.serverValueOrDash(s.get(PREFILL_MS_MEAN))
            + " / "
            + Numbers.serverValueOrDash(s.get(DECODE_MS_MEAN)));
    ServingResultBlock.labelled(
        sb, "Client mean TTFT (ms):", Numbers.f2(l.serving().ttft().mean()));
    return sb.toString();
  }

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(DisaggregatedSection::has);
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l, several ? l.name() : null);
  }

  /** Per level, the transfers and phase times beside the client's TTFT. */
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
      COLUMNS.forEach(f -> row.add(Numbers.serverValue(s.get(f))));
      row.add(Numbers.f2(l.serving().ttft().mean()));
      rows.add(row);
    }
    List<String> headers = new ArrayList<>();
    headers.add("Level");
    COLUMNS.forEach(f -> headers.add(f.label()));
    headers.add("Client mean TTFT (ms)");
    Table table =
        new Table(
            "Disaggregated serving: KV transfers from prefill to decode, the client's TTFT",
            headers,
            rows);
    return List.of(
        new PagePart(
            "llm-disaggregated",
            "Disaggregated serving",
            List.of(
                table,
                Note.kit(
                    "From the server's own metrics over the level (vLLM's NIXL connector,"
                        + " SGLang's kv_transfer_*); the client's TTFT holds the transfer"
                        + " (docs/telemetry.md#disaggregated-serving)."))));
  }
}
