package io.github.llmbench.history;

import io.github.llmbench.analysis.ChangePoints;
import io.github.llmbench.core.Level;
import io.github.llmbench.gates.Gate;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.gates.GateResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code -Dgate.history=tpot.mean:+10%,output_throughput.min:-10%}: a run fails when, with it
 * appended to its key's history, a figure's series has a significant change point among the newest
 * {@value #NEWEST} runs (this run or the two before it) that is worse than the threshold.
 *
 * <p>Why the newest three and not this run alone: a permutation test cannot call one run a change
 * (a shuffle puts that run at either end of the series, so its p-value stays above about 2/n); two
 * runs after a step can reach p &lt; 0.05 from about 20 runs of history. So the gate fails the
 * second run of a regression at the earliest, and goes on failing while the step is among the
 * newest three runs: a re-run of the same build does not wash it away. The change points are found
 * at p &lt; {@value #P_VALUE} (one series per gate, not the page's twenty per level).
 *
 * @param rules the figures and their thresholds, in the order given
 */
public record HistoryGate(List<Rule> rules) {

  /** How many of the newest runs a change may start at. */
  public static final int NEWEST = 3;

  /** The p-value a change must be under. */
  public static final double P_VALUE = 0.05;

  /** The fewest runs (this one included) a series needs before the gate judges it. */
  public static final int MIN_RUNS = 8;

  /** The setting's name, for messages. */
  public static final String SETTING = "-Dgate.history";

  /**
   * One figure's rule.
   *
   * @param metric the figure
   * @param pct the change it allows, in percent, signed the bad way (+10 for a latency, -10 for a
   *     throughput)
   */
  public record Rule(GateMetric metric, double pct) {}

  public HistoryGate {
    rules = List.copyOf(rules);
  }

  /**
   * Parses {@code FIGURE:+N%[,FIGURE:-N%...]}.
   *
   * @throws IllegalArgumentException one line naming the entry and what is accepted
   */
  public static HistoryGate parse(String raw) {
    List<Rule> rules = new ArrayList<>();
    for (String entry : raw.split(",")) {
      String e = entry.trim();
      int colon = e.lastIndexOf(':');
      String figure = colon < 0 ? e : e.substring(0, colon).trim();
      String limit = colon < 0 ? "" : e.substring(colon + 1).trim();
      GateMetric m =
          HistoryFigures.parse(figure).orElseThrow(() -> bad(raw, e, "FIGURE one of " + figures()));
      double pct;
      try {
        if (!limit.endsWith("%")) {
          throw new NumberFormatException(limit);
        }
        pct = Double.parseDouble(limit.substring(0, limit.length() - 1).trim());
      } catch (NumberFormatException ex) {
        throw bad(raw, e, "a change in percent after the colon, e.g. tpot.mean:+10%");
      }
      if (!Double.isFinite(pct) || pct == 0 || (pct > 0) != m.upperBound()) {
        throw bad(
            raw,
            e,
            m.upperBound()
                ? "a rise, +N% (N above 0): higher " + m.key() + " is worse"
                : "a fall, -N% (N above 0): lower " + m.key() + " is worse");
      }
      rules.add(new Rule(m, pct));
    }
    return new HistoryGate(rules);
  }

  private static IllegalArgumentException bad(String raw, String entry, String expected) {
    return new IllegalArgumentException(
        "Invalid gate "
            + SETTING
            + "="
            + raw
            + ": entry '"
            + entry
            + "': expected FIGURE:+N% or FIGURE:-N% with "
            + expected);
  }

  private static String figures() {
    return String.join(", ", HistoryFigures.ALL.stream().map(GateMetric::key).toList());
  }

  /**
   * The gate's result per rule and level of this run: judged on its key's history with this run as
   * the newest entry.
   *
   * @param history the history before this run (any keys)
   * @param run this run's line
   */
  public List<Verdict> check(List<HistoryLine> history, HistoryLine run) {
    List<HistoryLine> series = new ArrayList<>();
    history.stream().filter(l -> run.key().equals(l.key())).forEach(series::add);
    series.add(run);
    List<Verdict> out = new ArrayList<>();
    ChangePoints.Settings settings = ChangePoints.Settings.DEFAULT.withPValue(P_VALUE);
    for (Rule r : rules) {
      for (String level : run.levels().keySet()) {
        HistorySeries s = HistorySeries.of(series, run.key(), level, r.metric().key(), settings);
        out.add(verdict(r, level, s, run));
      }
    }
    return out;
  }

  private static Verdict verdict(Rule r, String level, HistorySeries s, HistoryLine run) {
    int n = s.values().length;
    boolean hasRun = n > 0 && s.runs().get(n - 1) == run;
    Gate gate =
        new Gate(Level.parse(level).orElse(null), r.metric(), new Gate.Limit(r.pct(), true));
    double measured = hasRun ? s.values()[n - 1] : Double.NaN;
    if (!hasRun || n < MIN_RUNS) {
      return new Verdict(
          null,
          String.format(
              Locale.ROOT,
              "%s %s: %d run(s) in the series, %d needed: not judged",
              level,
              r.metric().key(),
              n,
              MIN_RUNS));
    }
    for (ChangePoints.ChangePoint cp : s.changePoints()) {
      double pct = 100 * cp.magnitude();
      boolean recent = cp.index() > n - NEWEST;
      boolean worse = r.pct() > 0 ? pct > r.pct() : pct < r.pct();
      if (recent && worse) {
        HistoryLine start = s.runs().get(cp.index() - 1);
        return new Verdict(
            new GateResult(gate, level, gate.limitAt(cp.before()), cp.after(), false),
            String.format(
                Locale.ROOT,
                "%s %s: a change of %+.1f%% (p %.3f) starts at run %d of %d (%s, %s)",
                level,
                r.metric().key(),
                pct,
                cp.pValue(),
                cp.index(),
                n,
                start.run(),
                start.time()));
      }
    }
    return new Verdict(
        new GateResult(gate, level, gate.limitAt(mean(s.values(), n - 1)), measured, true),
        String.format(
            Locale.ROOT,
            "%s %s: no change beyond %+.1f%% starting at the newest %d of %d runs",
            level,
            r.metric().key(),
            r.pct(),
            NEWEST,
            n));
  }

  private static double mean(double[] v, int count) {
    double sum = 0;
    for (int i = 0; i < count; i++) {
      sum += v[i];
    }
    return count == 0 ? Double.NaN : sum / count;
  }

  /**
   * A rule's result at a level.
   *
   * @param result as the other gates' (the limit: the level before the change, or before this run,
   *     moved by the threshold; measured: the new level, or this run's value); null when the series
   *     is too short to judge
   * @param why the console's line on it
   */
  public record Verdict(GateResult result, String why) {
    public boolean judged() {
      return result != null;
    }
  }
}
