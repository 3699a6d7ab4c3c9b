package io.github.llmbench.history;

import io.github.llmbench.analysis.Cusum;
import io.github.llmbench.core.Level;
import io.github.llmbench.gates.Gate;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.gates.GateResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code -Dgate.history=tpot.mean:+10%,output_throughput.min:-10%}: post-merge monitoring. Each
 * run, appended to its key's history, is judged by a one-sided CUSUM on the logs of the figure's
 * series ({@link Cusum}): it fails when the chart is above its limit, that is while a change the
 * bad way, tuned to the rule's threshold, has accumulated since the chart's last zero. The line
 * names the run the change most likely started at (the one after the last zero) and prints the
 * interleaved A/B command that confirms it against the run before it.
 *
 * <p>Why a CUSUM and not the change points of {@code history.html}: the gate used to fail only when
 * a change point among the newest three runs was larger than the threshold, and so caught a +10%
 * step within those three runs 23-32% of the time at a run-to-run log sd of 0.07 (issue 58's E3). A
 * CUSUM adds the evidence of every run since the change, with a stated run length between false
 * alarms ({@link Cusum#IN_CONTROL_RUNS} with a known reference), and a change that stays goes on
 * failing until it has held {@link Cusum#MIN_REFERENCE} runs, when it becomes the reference: a
 * re-run of the same build does not wash it away.
 *
 * @param rules the figures and their thresholds, in the order given
 */
public record HistoryGate(List<Rule> rules) {

  /** The p-value of the change points that cut a key's segments (for the other gates' noise). */
  public static final double P_VALUE = 0.05;

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
    for (Rule r : rules) {
      for (String level : run.levels().keySet()) {
        out.add(verdict(r, level, series, run));
      }
    }
    return out;
  }

  private static Verdict verdict(Rule r, String level, List<HistoryLine> ofKey, HistoryLine run) {
    List<HistoryLine> runs = new ArrayList<>();
    List<Double> worse = new ArrayList<>();
    double sign = r.pct() > 0 ? 1 : -1;
    for (HistoryLine l : ofKey) {
      double v = l.value(level, r.metric().key());
      if (Double.isFinite(v) && v > 0) {
        runs.add(l);
        worse.add(sign * Math.log(v));
      }
    }
    int n = runs.size();
    String name = level + " " + r.metric().key();
    if (n == 0 || runs.get(n - 1) != run) {
      return new Verdict(null, name + ": this run has no value: not judged");
    }
    double shift = Math.log(1 + Math.abs(r.pct()) / 100);
    Cusum.State state =
        Cusum.last(worse.stream().mapToDouble(Double::doubleValue).toArray(), shift);
    Gate gate =
        new Gate(Level.parse(level).orElse(null), r.metric(), new Gate.Limit(r.pct(), true));
    double measured = run.value(level, r.metric().key());
    if (state instanceof Cusum.Alarm a) {
      return alarm(r, name, gate, level, a, runs, sign);
    }
    if (state instanceof Cusum.InControl in) {
      return new Verdict(
          new GateResult(gate, level, gate.limitAt(level(in.reference(), sign)), measured, true),
          String.format(
              Locale.ROOT,
              "%s: no change beyond %+.1f%%: CUSUM %.2f, limit %.2f; %s",
              name,
              r.pct(),
              in.sum(),
              in.limits().h(),
              design(in.limits(), in.reference(), runs)));
    }
    return new Verdict(
        null,
        String.format(
            Locale.ROOT,
            "%s: %d earlier run(s) at the current level, %d needed: not judged",
            name,
            ((Cusum.TooFew) state).runs(),
            Cusum.MIN_REFERENCE));
  }

  private static Verdict alarm(
      Rule r,
      String name,
      Gate gate,
      String level,
      Cusum.Alarm a,
      List<HistoryLine> runs,
      double sign) {
    HistoryLine start = runs.get(a.start());
    HistoryLine parent = runs.get(a.start() - 1);
    double pct = 100 * Math.expm1(sign * a.change());
    double ref = level(a.reference(), sign);
    String why =
        String.format(
            Locale.ROOT,
            "%s: a change of %+.1f%% most likely started at run %d of %d (%s, %s): CUSUM %.2f over"
                + " its limit %.2f since run %d; %s; %s; confirm it against the run before it"
                + " (%s) with an interleaved A/B of their two builds, this key's other settings"
                + " kept: mvn gatling:test -Dserve.cmd='<%s's server> --port {port}'"
                + " -Dcandidate.serve.cmd='<%s's server> --port {port}' -Dgate.%s=%s%s%%",
            name,
            pct,
            a.start() + 1,
            runs.size(),
            start.run(),
            start.time(),
            a.sum(),
            a.limits().h(),
            a.flagged() + 1,
            a.untilReference() > 0
                ? "it becomes the reference after " + a.untilReference() + " more run(s) at it"
                : "it is the reference from the next run on",
            design(a.limits(), a.reference(), runs),
            parent.run(),
            parent.run(),
            start.run(),
            r.metric().key(),
            r.pct() > 0 ? "+" : "",
            Level.plainNumber(r.pct()));
    double changed = Math.exp(sign * (a.reference().mean() + a.change()));
    return new Verdict(new GateResult(gate, level, gate.limitAt(ref), changed, false), why);
  }

  /** The reference's level in the figure's own units. */
  private static double level(Cusum.Reference ref, double sign) {
    return Math.exp(sign * ref.mean());
  }

  /** What the chart was judged against, and how far to trust it. */
  private static String design(Cusum.Limits limits, Cusum.Reference ref, List<HistoryLine> runs) {
    return String.format(
        Locale.ROOT,
        "reference: runs %d-%d (%s to %s, %d runs), log sd %.3f, lag-1 %.2f; about %.0f runs"
            + " between false alarms with a known reference (fewer with one of %d runs, see"
            + " docs/history.md), a lasting change of the threshold caught after about %.1f run(s)",
        ref.from() + 1,
        ref.to() + 1,
        runs.get(ref.from()).run(),
        runs.get(ref.to()).run(),
        ref.runs(),
        ref.sd(),
        ref.rho(),
        limits.inControlRuns(),
        ref.runs(),
        limits.runsToDetect());
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
