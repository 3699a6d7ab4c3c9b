package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RampWindows;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.analysis.TokenArrivals;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run over time: requests in flight and output tokens per second (steady windows shaded); per
 * ramp level, its chart and verdict on the page and its console block, after its result blocks: one
 * line per window of the ramp (the load asked, what was sent and served, the latency of the
 * requests sent then) and where latency broke.
 *
 * <pre>
 * ------------------------ Ramp (r1-8) ------------------------
 *      s    asked  sent/s  out tok/s  Med TTFT ms  P90 TTFT ms  Med TPOT ms  failed
 *    0-3     1.26    1.33     170.67        21.03        24.87        10.05       0
 * ...
 * Ramp linear 1 to 8 req/s: latency broke at 5.2 req/s, 36 s in: median TTFT 820 ms, ...
 * </pre>
 */
public final class TimelineSection implements ReportSection {

  private static final int MAX_TIMELINE_POINTS = 3000;

  TimelineSection() {}

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return true;
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return rampBlock(l.ramp(), several ? l.name() : null);
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<Item> items =
        new ArrayList<>(
            List.of(
                Chart.of("llm-chart-inflight", "inflight")
                    .with("title", "Requests in flight (steady windows shaded)")));
    if (a.figures().generates()) { // a pooling run (embeddings) generates no tokens
      items.add(
          Chart.of("llm-chart-tokens", "tokens")
              .with("title", "Output tokens arriving per second"));
    }
    int ramp = 0;
    for (RunAnalysis.Level l : a.levels().values()) {
      if (!l.ramp().isEmpty()) {
        items.add(Chart.of("llm-chart-ramp-" + ramp, "ramp").with("ramp", ramp++));
        items.add(Note.of(l.ramp().verdict()));
      }
    }
    return List.of(new PagePart("llm-timeline", "Over time", items));
  }

  @Override
  public void putChartData(RunAnalysis a, RunInfo info, Map<String, Object> d) {
    List<Map<String, Object>> windows = new ArrayList<>();
    a.levels()
        .forEach(
            (name, l) -> {
              if (l.steady().reached()) {
                Map<String, Object> w = new LinkedHashMap<>();
                w.put("level", name);
                w.put("from", l.steady().windowStartMs());
                w.put("to", l.steady().windowEndMs());
                windows.add(w);
              }
            });
    d.put("windows", windows);
    d.put("ramps", ramps(a));
    d.put("inflight", inFlight(a.records()));
    d.put("tokens", tokensPerSecond(a.records()));
  }

  /**
   * Each ramp level over time, in the order of its chart: the load asked and sent, the median TTFT
   * and TPOT per window (at the window's middle, s from the ramp's start), and where latency broke.
   */
  private static List<Map<String, Object>> ramps(RunAnalysis a) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      if (!l.ramp().isEmpty()) {
        out.add(ramp(l.name(), l.ramp()));
      }
    }
    return out;
  }

  private static Map<String, Object> ramp(String level, RampWindows r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("level", level);
    m.put("rate", r.ramp().kind() == Ramp.Kind.RATE);
    List<double[]> asked = new ArrayList<>();
    List<double[]> sent = new ArrayList<>();
    List<Object[]> ttft = new ArrayList<>();
    List<Object[]> tpot = new ArrayList<>();
    for (RampWindows.Window w : r.windows()) {
      double mid = (w.fromSeconds() + w.toSeconds()) / 2;
      asked.add(new double[] {mid, w.asked()});
      sent.add(new double[] {mid, w.sentPerSecond()});
      ttft.add(new Object[] {mid, finiteOrNull(w.medianTtftMs())});
      tpot.add(new Object[] {mid, finiteOrNull(w.medianTpotMs())});
    }
    m.put("asked", asked);
    m.put("sent", sent);
    m.put("ttft", ttft);
    m.put("tpot", tpot);
    m.put("brokeAt", r.broke() ? r.breakWindow().fromSeconds() : null);
    m.put("brokeLoad", r.broke() ? r.brokeAtLoad() : null);
    m.put("brokeTtft", r.broke() ? finiteOrNull(r.breakWindow().medianTtftMs()) : null);
    return m;
  }

  private static Double finiteOrNull(double v) {
    return Double.isFinite(v) ? v : null;
  }

  /**
   * [[epoch ms, in flight]] steps, thinned to the maximum per time bucket when there are more than
   * {@value #MAX_TIMELINE_POINTS}: a run of a million requests has two million steps, and the page
   * must stay small whatever the run's size.
   */
  static List<long[]> inFlight(List<RequestRecord> records) {
    SteadyState.Steps steps = SteadyState.inFlightSteps(records);
    long[] times = steps.timesMs();
    int[] counts = steps.inFlight();
    List<long[]> out = new ArrayList<>();
    if (steps.size() <= MAX_TIMELINE_POINTS) {
      for (int i = 0; i < times.length; i++) {
        out.add(new long[] {times[i], counts[i]});
      }
      return out;
    }
    long from = times[0];
    long to = times[times.length - 1];
    long bucket = Math.max(1, (to - from) / (MAX_TIMELINE_POINTS / 2) + 1);
    // steps are in time order: each bucket is a run of consecutive steps
    long current = Long.MIN_VALUE;
    long max = 0;
    for (int i = 0; i < times.length; i++) {
      long b = from + (times[i] - from) / bucket * bucket;
      if (b != current) {
        if (current != Long.MIN_VALUE) {
          out.add(new long[] {current, max});
        }
        current = b;
        max = counts[i];
      } else {
        max = Math.max(max, counts[i]);
      }
    }
    out.add(new long[] {current, max});
    out.add(new long[] {to, counts[counts.length - 1]});
    return out;
  }

  /**
   * [[epoch ms of the second, output tokens that arrived in it]], weighted per chunk. A run longer
   * than {@value #MAX_TIMELINE_POINTS} s is shown with wider buckets (each point the mean tok/s
   * over its k seconds, at the start of its first second), so the page stays small.
   */
  static List<double[]> tokensPerSecond(List<RequestRecord> records) {
    long origin = Long.MAX_VALUE;
    for (RequestRecord r : records) {
      origin = Math.min(origin, r.startMs());
    }
    TokenArrivals.SecondBuckets buckets = TokenArrivals.perSecond(records, origin, true);
    List<double[]> out = new ArrayList<>();
    if (buckets.isEmpty()) {
      return out;
    }
    long first = buckets.first();
    long last = buckets.last();
    long width = Math.max(1, (last - first) / MAX_TIMELINE_POINTS + 1);
    for (long b = first; b <= last; b += width) {
      double sum = 0;
      long end = Math.min(last, b + width - 1);
      for (long s = b; s <= end; s++) {
        sum += buckets.get(s);
      }
      out.add(new double[] {origin + b * 1000.0, sum / (end - b + 1)});
    }
    return out;
  }

  /**
   * The block, lines ended by {@code \n}; empty for a level that is no ramp.
   *
   * @param level the level's name for the title, null or blank for a single-level run
   */
  public static String rampBlock(RampWindows ramp, String level) {
    if (ramp.isEmpty()) {
      return "";
    }
    String title = level == null || level.isBlank() ? " Ramp " : " Ramp (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    sb.append(
        String.format(
            Locale.ROOT,
            "%9s %8s %7s %10s %12s %12s %12s %7s%n",
            "s",
            "asked",
            "sent/s",
            "out tok/s",
            "Med TTFT ms",
            "P90 TTFT ms",
            "Med TPOT ms",
            "failed"));
    for (int i = 0; i < ramp.windows().size(); i++) {
      RampWindows.Window w = ramp.windows().get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "%9s %8.2f %7.2f %10.2f %12s %12s %12s %7d%s%n",
              seconds(w.fromSeconds()) + "-" + seconds(w.toSeconds()),
              w.asked(),
              w.sentPerSecond(),
              w.outputTokensPerSecond(),
              ms(w.medianTtftMs()),
              ms(w.p90TtftMs()),
              ms(w.medianTpotMs()),
              w.failed(),
              i == ramp.breakAt() ? "  <- broke" : ""));
    }
    sb.append(ramp.verdict()).append('\n');
    return sb.toString();
  }

  /**
   * A window's milliseconds as {@link Numbers#orDash} writes them, but an infinite one as {@code
   * %.2f} does ({@code Infinity}), as this table always has; {@code orDash} writes {@code -} for
   * it.
   */
  private static String ms(double v) {
    return Double.isInfinite(v) ? String.format(Locale.ROOT, "%.2f", v) : Numbers.orDash(v, 2);
  }

  /** A window's edge: whole seconds as such, else to a tenth. */
  private static String seconds(double s) {
    return Level.plainNumber(Math.round(s * 10) / 10.0);
  }
}
