package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything the run was, one row per setting (the capacity has its own section). */
final class RunSettingsSection implements ReportSection {

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return true;
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    Map<String, Object> flat = new LinkedHashMap<>();
    flatten("", Summary.asMap(info.withCapacity(null).withAnalysisInputs(null)), flat);
    List<List<Object>> rows = new ArrayList<>();
    flat.forEach((k, v) -> rows.add(PagePart.row(k, v)));
    return List.of(
        new PagePart(
            "llm-run", "Run", List.of(new Table("Run", List.of("Setting", "Value"), rows))));
  }

  private static void flatten(String prefix, Map<?, ?> m, Map<String, Object> out) {
    m.forEach(
        (k, v) -> {
          String key = prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k;
          if (v instanceof Map<?, ?> nested) {
            flatten(key, nested, out);
          } else {
            out.put(key, v);
          }
        });
  }
}
