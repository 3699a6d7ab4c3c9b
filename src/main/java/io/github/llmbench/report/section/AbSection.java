package io.github.llmbench.report.section;

import io.github.llmbench.analysis.GateDesign;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.SequentialTest;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Heading;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.AbFigures;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An interleaved A/B run's answer ({@code -Dcandidate.url}): per relative gate the ratio with its
 * interval, the verdict, the pairs used, the error rates it was judged at, and the two servers; on
 * the page, per gate, the running ratio as the pairs accumulated with the fail and pass lines.
 */
public final class AbSection implements ReportSection {

  /** Whether the run was an A/B run shows in its info, not its analysis: see {@link #page}. */
  @Override
  public boolean appliesTo(RunAnalysis a) {
    return true;
  }

  /** The console block at the run's end. */
  public static String format(AbFigures ab) {
    StringBuilder sb = new StringBuilder();
    sb.append("============ Interleaved A/B (").append(ab.level()).append(") ============\n");
    sb.append("A (base):      ")
        .append(ab.baseUrl())
        .append(" (")
        .append(ab.baseModel())
        .append(")\n");
    sb.append("B (candidate): ")
        .append(ab.candidateUrl())
        .append(" (")
        .append(ab.candidateModel())
        .append(")\n");
    sb.append(
        String.format(
            Locale.ROOT,
            "Pairs run:     %d of %d s a side, order from the seed; stopped: %s%n",
            ab.pairs().size(),
            ab.trialSeconds(),
            ab.stoppedBy()));
    if (!ab.blocks().isEmpty()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "Blocks:        %d, each on servers started for it (%s); logs in %s%n",
              ab.blocks().size(),
              blockPids(ab),
              ab.serverLogs()));
    }
    for (AbFigures.GateTrack g : ab.gates()) {
      sb.append(line(g, ab.unit())).append('\n');
    }
    sb.append("(ratios and intervals ").append(SequentialTest.STOPPING_LOOK_RATIO).append(")\n");
    sb.append("(the level's blocks above pool A and B; \"Per server\" shows each side)\n");
    return sb.toString();
  }

  /**
   * {@code FAIL tpot.mean B/A 1.482 [1.410, 1.560] after 3 pairs (false alarm 5%, a +10.0% change
   * passes at most 10%)}.
   */
  static String line(AbFigures.GateTrack g, String unit) {
    String interval =
        g.low() == null || g.high() == null
            ? "no interval"
            : String.format(Locale.ROOT, "[%.3f, %.3f]", g.low(), g.high());
    return String.format(
        Locale.ROOT,
        "%-12s %-24s %s %s %s after %d %ss (%s)",
        g.decision(),
        g.gate(),
        g.orientation(),
        g.ratio() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", g.ratio()),
        interval,
        g.pairsUsed(),
        unit,
        rates(g));
  }

  /** {@code block 1: A pid 811, B pid 812; ...}. */
  private static String blockPids(AbFigures ab) {
    StringBuilder sb = new StringBuilder();
    for (AbFigures.Block b : ab.blocks()) {
      if (sb.length() > 0) {
        sb.append("; ");
      }
      sb.append(
          String.format(
              Locale.ROOT, "block %d: A pid %d, B pid %d", b.block(), b.pidA(), b.pidB()));
    }
    return sb.toString();
  }

  /**
   * The error rates the pairs were judged at, in the gates' words: the threshold is a ratio worse
   * (B/A for a latency, A/B for a throughput), as the line's ratio is.
   */
  static String rates(AbFigures.GateTrack g) {
    return GateDesign.of(new GateDesign.ErrorRates(g.alpha(), g.power()), g.threshold(), false)
        .describeRates(false);
  }

  /** The answer first on the page: the servers, a row per gate, a chart per gate. */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    AbFigures ab = info.ab();
    if (ab == null) {
      return List.of();
    }
    List<Item> items = new ArrayList<>();
    items.add(new Heading("Interleaved A/B at " + ab.level()));
    items.add(
        Note.of(
            "A (base): "
                + ab.baseUrl()
                + " ("
                + ab.baseModel()
                + "); B (candidate): "
                + ab.candidateUrl()
                + " ("
                + ab.candidateModel()
                + "); "
                + ab.pairs().size()
                + " pairs of "
                + ab.trialSeconds()
                + " s a side, stopped: "
                + ab.stoppedBy()
                + "."
                + (ab.blocks().isEmpty()
                    ? ""
                    : " "
                        + ab.blocks().size()
                        + " blocks, each on servers started for it ("
                        + blockPids(ab)
                        + "); the gates judge each block's requests pooled on each side.")));
    List<List<Object>> rows = new ArrayList<>();
    for (AbFigures.GateTrack g : ab.gates()) {
      rows.add(
          PagePart.row(
              g.gate(),
              g.decision(),
              g.orientation(),
              g.ratio() == null ? null : String.format(Locale.ROOT, "%.3f", g.ratio()),
              g.low() == null
                  ? null
                  : String.format(Locale.ROOT, "[%.3f, %.3f]", g.low(), g.high()),
              g.pairsUsed(),
              rates(g)));
    }
    items.add(
        new Table(
            "Gates decided on the " + ab.unit() + "s",
            List.of(
                "gate", "verdict", "ratio", "estimate", "interval", ab.unit() + "s", "error rates"),
            rows));
    for (int i = 0; i < ab.gates().size(); i++) {
      items.add(Chart.of("llm-chart-ab-" + i, "ab").with("gate", i));
    }
    items.add(Note.kit("The ratios and intervals are " + SequentialTest.STOPPING_LOOK_RATIO + "."));
    items.add(
        Note.kit(
            "Each pair ran A and B back to back with the same prompts, in balanced blocks of two"
                + " pairs (AB then BA, or BA then AB, drawn from the seed): a drift of the testbed"
                + " falls on both sides and cancels in the ratio."));
    return List.of(new PagePart("llm-ab", "A/B", items));
  }

  /** The pairs and the looks, for the charts. */
  @Override
  public void putChartData(RunAnalysis a, RunInfo info, Map<String, Object> data) {
    if (info.ab() != null) {
      data.put("ab", Summary.asMap(info.ab()));
    }
  }
}
