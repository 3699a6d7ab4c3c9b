package io.github.llmbench.report.section;

import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.gates.GoodputSpec;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Heading;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.settings.SearchSettings;
import io.github.llmbench.summary.CapacityFigures;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A capacity search's answer: on the console, as {@code summary.json} {@code capacity}, and first
 * on the page with a chart per objective.
 *
 * <pre>
 * =========== Capacity at SLO (ttft.p99 &lt;= 2000, tpot.p99 &lt;= 100) ===========
 * Capacity:  c36 meets every objective; c38 broke tpot.p99 112.40 &gt; 100.00 (+12.4%)
 * Goodput:   at c36, 11.52 req/s of 12.10 (95.2% of requests meet ttft:2000 tpot:100, from -Dslo)
 * Probes:    c1 met, c2 met, ..., c64 broke, c48 broke, c40 broke, c36 met, c38 broke
 * </pre>
 *
 * <p>Goodput is vLLM's: the requests that meet per-request objectives, per second of the level. Its
 * objectives are {@code -Dgate.goodput}'s when set, else the SLO's TTFT, TPOT and E2EL limits taken
 * per request (a P99 objective of 2000 ms: each request within 2000 ms).
 */
public final class CapacitySection implements ReportSection {
  CapacitySection() {}

  /**
   * Requests a probe needs for a P99 that no single request decides (the 99th of 100 sits between
   * two).
   */
  static final int STABLE_P99_REQUESTS = 100;

  public static String format(
      CapacitySearch.Verdict v,
      SearchSettings search,
      Optional<GoodputSpec> gateGoodput,
      RunAnalysis a) {
    StringBuilder sb = new StringBuilder();
    List<String> slo = new ArrayList<>();
    search.objectives().forEach((f, l) -> slo.add(f.key() + " <= " + Level.plainNumber(l)));
    sb.append(
            ServingResultBlock.center(
                " Capacity at SLO (" + String.join(", ", slo) + ") ",
                '=',
                ServingResultBlock.WIDTH))
        .append('\n');
    sb.append("Capacity:  ").append(sentence(v, search.rate())).append('\n');
    Goodput g = goodput(v, search, gateGoodput, a);
    if (g != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "Goodput:   at %s, %.2f req/s of %.2f (%.1f%% of requests meet %s, from %s)%n",
              g.level(),
              g.goodput(),
              g.throughput(),
              g.pct(),
              g.spec(),
              g.from()));
    }
    List<String> probes = new ArrayList<>();
    List<String> thin = new ArrayList<>();
    for (CapacitySearch.Probe p : v.probes()) {
      String level = level(p.load(), search.rate());
      int n = requests(a, level);
      probes.add(level + (p.met() ? " met" : " broke") + " (" + n + " requests)");
      if (n < STABLE_P99_REQUESTS) {
        thin.add(level + ": " + n);
      }
    }
    sb.append("Probes:    ").append(String.join(", ", probes)).append('\n');
    if (!thin.isEmpty() && search.objectives().keySet().stream().anyMatch(CapacitySection::onP99)) {
      sb.append("! P99 objectives judged on fewer than ")
          .append(STABLE_P99_REQUESTS)
          .append(" requests (")
          .append(String.join(", ", thin))
          .append("): one request decides such a P99; a longer -Dduration gives probes more\n");
    }
    return sb.toString();
  }

  private static boolean onP99(SloFigure f) {
    return f instanceof LatencyFigure l && l.statistic().equals(Statistic.P99);
  }

  /**
   * Goodput at the capacity level: good requests per second, with the objectives and where they
   * come from.
   */
  record Goodput(
      String level, double goodput, double throughput, double pct, GoodputSpec spec, String from) {}

  static Goodput goodput(
      CapacitySearch.Verdict v,
      SearchSettings search,
      Optional<GoodputSpec> gateGoodput,
      RunAnalysis a) {
    String level = v.capacity() == null ? null : level(v.capacity(), search.rate());
    RunAnalysis.Level at = level == null ? null : a.levels().get(level);
    if (at == null || at.serving().durationS() <= 0) {
      return null;
    }
    GoodputSpec spec = gateGoodput.orElseGet(() -> GoodputSpec.perRequest(search.objectives()));
    List<RequestRecord> records =
        a.records().stream().filter(r -> level.equals(r.level())).toList();
    long good = spec.goodCount(records);
    double s = at.serving().durationS();
    return new Goodput(
        level,
        good / s,
        at.serving().requestThroughput(),
        records.isEmpty() ? 0 : 100.0 * good / records.size(),
        spec,
        gateGoodput.isPresent() ? "-Dgate.goodput" : "-Dslo");
  }

  /** The answer in one sentence. */
  static String sentence(CapacitySearch.Verdict v, boolean rate) {
    CapacitySearch.Probe broken =
        v.probes().stream()
            .filter(p -> v.lowestBroken() != null && p.load() == v.lowestBroken())
            .findFirst()
            .orElse(null);
    String brokeWhat = broken == null ? "" : " broke " + String.join(", ", broken.broken());
    return switch (v.status()) {
      case "bracketed" ->
          level(v.capacity(), rate)
              + " meets every objective; "
              + level(v.lowestBroken(), rate)
              + brokeWhat;
      case "never met" ->
          "none: the lowest level probed, "
              + level(v.lowestBroken(), rate)
              + ","
              + brokeWhat
              + " (lower -Dsearch.min)";
      case "always met" ->
          "at least "
              + level(v.capacity(), rate)
              + ": the highest level probed met every objective (raise -Dsearch.max)";
      default ->
          "not bracketed (out of time, -Dsearch.budget): "
              + (v.capacity() == null
                  ? "no level met the objectives"
                  : level(v.capacity(), rate) + " met every objective")
              + (v.lowestBroken() == null ? "" : "; " + level(v.lowestBroken(), rate) + brokeWhat);
    };
  }

  /** The answer for {@code summary.json} ({@code capacity}) and the page. */
  public static CapacityFigures figures(
      CapacitySearch.Verdict v,
      SearchSettings search,
      Optional<GoodputSpec> gateGoodput,
      RunAnalysis a) {
    Map<String, Double> objectives = new LinkedHashMap<>();
    search.objectives().forEach((f, l) -> objectives.put(f.key(), l));
    List<CapacityFigures.Probe> probes = new ArrayList<>();
    for (CapacitySearch.Probe p : v.probes()) {
      String level = level(p.load(), search.rate());
      Map<String, Double> figures = new LinkedHashMap<>();
      search.objectives().keySet().forEach(f -> figures.put(f.key(), p.figures().get(f)));
      probes.add(
          new CapacityFigures.Probe(
              level, p.load(), p.met(), requests(a, level), p.broken(), figures));
    }
    RunAnalysis.Level at =
        v.capacity() == null ? null : a.levels().get(level(v.capacity(), search.rate()));
    Goodput g = goodput(v, search, gateGoodput, a);
    return new CapacityFigures(
        search.rate() ? CapacityFigures.RATE : CapacityFigures.CONC,
        v.status(),
        v.capacity(),
        v.lowestBroken(),
        sentence(v, search.rate()),
        objectives,
        search.precision(),
        probes,
        at == null ? null : at.serving().requestThroughput(),
        at == null ? null : at.serving().outputThroughput(),
        g == null ? null : g.goodput(),
        g == null ? null : g.pct(),
        g == null ? null : g.spec().toString(),
        g == null ? null : g.from());
  }

  /** The requests a probe's level completed. */
  private static int requests(RunAnalysis a, String level) {
    RunAnalysis.Level l = a.levels().get(level);
    return l == null ? 0 : l.serving().completed();
  }

  /**
   * A probe's level's tag: {@code c36} for a concurrency, {@code r6.25} for a request rate; {@code
   * none} for no load.
   */
  static String level(Double load, boolean rate) {
    if (load == null) {
      return "none";
    }
    Level level = rate ? Level.open(load) : Level.closed((int) Math.round(load));
    return level.tag();
  }

  /** Whether the run was a search shows in its info, not its analysis: see {@link #page}. */
  @Override
  public boolean appliesTo(RunAnalysis a) {
    return true;
  }

  /**
   * A capacity search's answer, first on the page: the sentence, the goodput at the capacity, then
   * per objective a chart of its figure against the probed concurrency or rate (met and broken
   * probes apart), the objective's line and the capacity shaded.
   */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    CapacityFigures c = info.capacity();
    if (c == null) {
      return List.of();
    }
    List<Item> items = new ArrayList<>(List.of(new Heading("Capacity at SLO: " + c.answer())));
    if (c.requestGoodputAtCapacity() != null) {
      items.add(Note.of(goodputNote(c)));
    }
    if (c.objectives() != null) {
      int i = 0;
      for (String metric : c.objectives().keySet()) {
        items.add(Chart.of("llm-chart-capacity-" + i++, "capacity").with("metric", metric));
      }
    }
    return List.of(new PagePart("llm-capacity", null, items));
  }

  private static String goodputNote(CapacityFigures c) {
    return String.format(Locale.ROOT, "Goodput at the capacity: %.2f", c.requestGoodputAtCapacity())
        + " req/s meeting "
        + c.goodputObjectives()
        + " per request (from "
        + c.goodputObjectivesFrom()
        + ")"
        + (c.goodputPctAtCapacity() == null
            ? ""
            : String.format(Locale.ROOT, ", %.1f%% of its requests", c.goodputPctAtCapacity()))
        + ".";
  }

  /** The search's probes and objectives, for the charts. */
  @Override
  public void putChartData(RunAnalysis a, RunInfo info, Map<String, Object> data) {
    if (info.capacity() != null) {
      data.put("capacity", Summary.asMap(info.capacity()));
    }
  }
}
