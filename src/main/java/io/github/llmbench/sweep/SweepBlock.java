package io.github.llmbench.sweep;

import io.github.llmbench.report.section.Numbers;
import io.github.llmbench.report.section.ServingResultBlock;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Point;
import io.github.llmbench.summary.SweepSummary.PointLevel;
import java.util.Locale;
import java.util.Map;

/** A sweep's result on the console: each combination's levels, the frontier, the best level. */
public final class SweepBlock {
  private SweepBlock() {}

  public static String text(SweepSummary summary) {
    SweepSummary.Sweep s = summary.sweep();
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(" Sweep Result ", '=', 50)).append('\n');
    long done = s.points().stream().filter(p -> p.status() == SweepSummary.Status.done).count();
    sb.append(
        String.format(
            Locale.ROOT, "%-40s%d (%d done)%n", "Combinations:", s.points().size(), done));
    sb.append(
        String.format(
            Locale.ROOT,
            "%-44s %-10s %12s %12s %10s %10s %s%n",
            "Combination",
            "Level",
            "Output tok/s",
            "Tok/s/user",
            "TTFT P99",
            "TPOT mean",
            "Frontier"));
    for (Point p : s.points()) {
      if (p.levels() == null) {
        sb.append(String.format(Locale.ROOT, "%-44s %s: %s%n", name(p), p.status(), p.error()));
        continue;
      }
      for (Map.Entry<String, PointLevel> e : p.levels().entrySet()) {
        PointLevel l = e.getValue();
        sb.append(
            String.format(
                Locale.ROOT,
                "%-44s %-10s %12.2f %12s %10s %10s %s%n",
                name(p),
                e.getKey(),
                l.outputThroughput(),
                Numbers.num(l.interactivity()),
                Numbers.num(l.p99TtftMs()),
                Numbers.num(l.meanTpotMs()),
                l.onFrontier() ? "*" : ""));
      }
    }
    if (s.best() != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "Best%s: %s %s, %.2f output tok/s%n",
              s.slo().isEmpty() ? " (no -Dslo)" : " under " + SweepPage.objectives(s.slo()),
              s.best().point().isEmpty() ? "the run" : s.best().point(),
              s.best().level(),
              s.best().outputThroughput()));
    } else {
      sb.append("Best: no level met ").append(SweepPage.objectives(s.slo())).append('\n');
    }
    sb.append("=".repeat(50)).append('\n');
    return sb.toString();
  }

  private static String name(Point p) {
    return p.name().isEmpty() ? "(one)" : p.name();
  }
}
