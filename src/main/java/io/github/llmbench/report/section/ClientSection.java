package io.github.llmbench.report.section;

import io.github.llmbench.analysis.ClientHealth;
import io.github.llmbench.analysis.DeliveredLoad;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.ClientSample;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The load generator's own health over a level and its steady window (a page table of the probed
 * levels; a console block per level, then the guard line when the client limited what it measured):
 *
 * <pre>
 * ----------------------- Client (c64) ------------------------
 * delivered load: 63.84 of 64 requests in flight (99.7%), users waited 0.41 ms between requests;
 *   a user's slot idle from one request's end to its next send: median 0.05 ms, p99 0.40 ms
 * figure                          level     steady
 * JVM CPU (cores)                  0.41       0.43
 * busiest event loop (% core)      38.2       40.1
 * event-loop lag p50 (ms)         0.060      0.060
 * event-loop lag p99 (ms)          0.30       0.28
 * event-loop lag max (ms)           3.1        1.2
 * GC pauses (ms)                     12          4
 * heap in use max (MB)              210        190
 * verdict: healthy (2 event loops, lag p99 within 1 ms, busiest loop under 90%)
 * </pre>
 */
public final class ClientSection implements ReportSection {
  ClientSection() {}

  /**
   * @param level the level's name, for the guard line
   * @param titled whether the title names the level (a run of several levels)
   */
  private static String format(
      ClientHealth h, DeliveredLoad delivered, String level, boolean titled) {
    if (!h.level().measured() && delivered.kind() == DeliveredLoad.Kind.NONE) {
      return "";
    }
    String title = titled ? " Client (" + level + ") " : " Client ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    deliveredLines(sb, delivered);
    String load = delivered.guard(level);
    if (load != null) {
      sb.append("! ").append(load).append('\n');
    }
    if (!h.level().measured()) {
      return sb.toString();
    }
    sb.append(String.format(Locale.ROOT, "%-28s %10s %10s%n", "figure", "level", "steady"));
    ClientHealth.Window l = h.level();
    ClientHealth.Window s = h.steady();
    row(sb, "JVM CPU (cores of " + h.judged().cores() + ")", l.cpuCores(), s.cpuCores(), "%.2f");
    row(sb, "busiest event loop (% core)", l.busiestLoopPct(), s.busiestLoopPct(), "%.1f");
    row(sb, "event-loop lag p50 (ms)", l.lagP50Ms(), s.lagP50Ms(), "%.3f");
    row(sb, "event-loop lag p99 (ms)", l.lagP99Ms(), s.lagP99Ms(), "%.3f");
    row(sb, "event-loop lag max (ms)", l.lagMaxMs(), s.lagMaxMs(), "%.1f");
    row(sb, "late loops running (%)", l.lateOwnPct(), s.lateOwnPct(), "%.0f");
    row(sb, "GC pauses (ms)", l.gcPauseMs(), s.measured() ? s.gcPauseMs() : Double.NaN, "%.0f");
    row(
        sb,
        "heap in use max (MB)",
        l.heapMaxMb(),
        s.measured() ? s.heapMaxMb() : Double.NaN,
        "%.0f");
    String guard = h.guard(level);
    if (guard != null) {
      sb.append("! ").append(guard).append('\n');
    } else {
      sb.append(
          String.format(
              Locale.ROOT,
              "verdict: %s (%d event loops, lag p99 within %.0f ms, busiest loop under %.0f%%)%n",
              h.verdict(),
              h.judged().loops(),
              ClientHealth.LAG_P99_LIMIT_MS,
              ClientHealth.BUSY_LIMIT_PCT));
    }
    return sb.toString();
  }

  private static void deliveredLines(StringBuilder sb, DeliveredLoad d) {
    switch (d.kind()) {
      case CLOSED ->
          sb.append(
              String.format(
                  Locale.ROOT,
                  "delivered load: %.2f of %.0f requests in flight (%.1f%%)%s%s%n",
                  d.delivered(),
                  d.asked(),
                  d.pct(),
                  Double.isNaN(d.userWaitMs())
                      ? ""
                      : String.format(
                          Locale.ROOT, ", users waited %.2f ms between requests", d.userWaitMs()),
                  d.slotIdle().count() == 0
                      ? ""
                      : ";\n  a user's slot idle from one request's end to its next send: "
                          + slotIdle(d)));
      case OPEN -> {
        sb.append(
            String.format(
                Locale.ROOT,
                "delivered load: %.3f of %.3f requests/s (%.1f%%), sends late by %.1f ms"
                    + " (median) / %.1f ms (p99); E2EL with that wait: mean %.2f, p99 %.2f ms%n",
                d.delivered(),
                d.asked(),
                d.pct(),
                d.sendLateness().median(),
                d.sendLateness().value(Statistic.P99),
                d.e2elWithWait().mean(),
                d.e2elWithWait().value(Statistic.P99)));
        if (d.clientQueue().count() > 0) {
          sb.append(
              String.format(
                  Locale.ROOT,
                  "client queue (-Dmax.conc, each request's wait for a slot): median %.1f ms, p99"
                      + " %.1f ms%n",
                  d.clientQueue().median(),
                  d.clientQueue().value(Statistic.P99)));
        }
      }
      default -> {}
    }
  }

  private static void row(StringBuilder sb, String name, double level, double steady, String f) {
    sb.append(
        String.format(
            Locale.ROOT,
            "%-28s %10s %10s%n",
            name,
            Numbers.orEmpty(level, f),
            Numbers.orEmpty(steady, f)));
  }

  /** Whether the client's health was probed or the load asked can be set against the delivered. */
  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream()
        .anyMatch(
            l -> l.client().level().measured() || l.delivered().kind() != DeliveredLoad.Kind.NONE);
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l.client(), l.delivered(), l.name(), several);
  }

  /**
   * Per level, the load generator's own health over its steady window (else the whole level): what
   * bounds the error of the TTFT and ITL it measured. Nothing on the page when no level was probed.
   */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<List<Object>> rows = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      ClientHealth.Window w = l.client().judged();
      if (w.measured()) {
        rows.add(
            PagePart.row(
                l.name(),
                l.client().verdict().toString(),
                Numbers.f2(w.cpuCores()),
                Numbers.f1(w.busiestLoopPct()),
                String.format(Locale.ROOT, "%.3f", w.lagP50Ms()),
                String.format(Locale.ROOT, "%.3f", w.lagP99Ms()),
                Numbers.f1(w.lagMaxMs()),
                String.format(Locale.ROOT, "%.0f", w.gcPauseMs()),
                String.format(Locale.ROOT, "%.0f", w.heapMaxMb()),
                deliveredCell(l.delivered())));
      }
    }
    if (a.levels().values().stream().noneMatch(l -> l.client().level().measured())) {
      return List.of();
    }
    Table table =
        new Table(
            "Client: the load generator's own health (steady window, else the level)",
            List.of(
                "Level",
                "Verdict",
                "JVM CPU (cores)",
                "Busiest event loop (% core)",
                "Loop lag p50 (ms)",
                "Loop lag p99 (ms)",
                "Loop lag max (ms)",
                "GC pauses (ms)",
                "Heap max (MB)",
                "Delivered load"),
            rows);
    Note note =
        Note.kit(
            String.format(
                Locale.ROOT,
                "A task on each of Gatling's event loops every %d ms notes how"
                    + " late it ran: a loop that late stamps each read as late. Healthy: lag p99"
                    + " within %.0f ms and the busiest loop under %.0f%% of a core"
                    + " (docs/capture.md).",
                ClientSample.PROBE_PERIOD_MS,
                ClientHealth.LAG_P99_LIMIT_MS,
                ClientHealth.BUSY_LIMIT_PCT));
    return List.of(new PagePart("llm-client", "Client", List.of(table, note)));
  }

  /** The slot idle times' median and p99. */
  private static String slotIdle(DeliveredLoad d) {
    return String.format(
        Locale.ROOT,
        "median %.2f ms, p99 %.2f ms",
        d.slotIdle().median(),
        d.slotIdle().value(Statistic.P99));
  }

  private static String deliveredCell(DeliveredLoad d) {
    return switch (d.kind()) {
      case CLOSED ->
          String.format(
                  Locale.ROOT, "%.2f of %.0f in flight (%.1f%%)", d.delivered(), d.asked(), d.pct())
              + (d.slotIdle().count() == 0 ? "" : ", slot idle " + slotIdle(d));
      case OPEN ->
          String.format(
              Locale.ROOT,
              "%.3f of %.3f req/s (%.1f%%), sends p99 %.1f ms late",
              d.delivered(),
              d.asked(),
              d.pct(),
              d.sendLateness().value(Statistic.P99));
      default -> "";
    };
  }
}
