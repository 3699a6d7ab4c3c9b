package io.github.llmbench.report.section;

import io.github.llmbench.analysis.Roofline;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The roofline chart: each level's decode and whole-workload points against the GPU's roofs, and
 * the prefix cache's note. (Its figures are the levels section's roofline table and console lines.)
 */
final class RooflineSection implements ReportSection {

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(l -> l.roofline() != null);
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    String note =
        a.levels().values().stream()
            .map(RunAnalysis.Level::roofline)
            .filter(Objects::nonNull)
            .findFirst()
            .map(Roofline::prefixCacheNote)
            .orElse(Roofline.PREFIX_CACHE_NOTE);
    return List.of(
        new PagePart(
            "llm-roofline",
            "Roofline",
            List.of(
                Chart.of("llm-chart-roofline", "roofline")
                    .with("title", "Roofline: attained TFLOP/s against operational intensity"),
                Note.of(note))));
  }

  /** The roofs (peak compute, bandwidth) and each level's points; null without a roofline. */
  @Override
  public void putChartData(RunAnalysis a, RunInfo info, Map<String, Object> d) {
    List<Map<String, Object>> points = new ArrayList<>();
    Roofline last = null;
    for (RunAnalysis.Level l : a.levels().values()) {
      Roofline r = l.roofline();
      if (r == null) {
        continue;
      }
      last = r;
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("level", l.name());
      m.put("decodeOi", r.decode().oi());
      m.put("decodeFlops", r.decode().attainedFlops());
      m.put("wholeOi", r.whole().oi());
      m.put("wholeFlops", r.whole().attainedFlops());
      points.add(m);
    }
    if (last == null) {
      d.put("roofline", null);
      return;
    }
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("peak", last.peakFlops());
    r.put("bandwidth", last.bandwidth());
    r.put("points", points);
    d.put("roofline", r);
  }
}
