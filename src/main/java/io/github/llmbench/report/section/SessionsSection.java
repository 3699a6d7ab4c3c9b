package io.github.llmbench.report.section;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.SessionFigures;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Agent sessions, per level: what the agent's user waits for (the task time from a session's start
 * to its last call's end), the calls it took, where its time went (at the server, awaiting tools,
 * the agent's own waits), and TTFT and prompt length by step, the context growth.
 *
 * <pre>
 * --------------------- Agent sessions ----------------------
 * Sessions:                                  6 (6 completed)
 * Calls / requests per session:                   4.33 / 4.67
 * Task time mean / median / P99 (ms):   3120.5 / 3001.2 / 4810.0
 * At the server / tools / agent:        78.1% / 10.3% / 11.6%
 * Step Completed Failed Input tokens Mean TTFT P99 TTFT  Cached
 *    1         6      0         30.7     75.12   119.63    0.0%
 * </pre>
 */
final class SessionsSection implements ReportSection {

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().values().stream().anyMatch(l -> !l.sessions().isEmpty());
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    SessionFigures s = l.sessions();
    if (s.isEmpty()) {
      return "";
    }
    String title = several ? " Agent sessions (" + l.name() + ") " : " Agent sessions ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    line(sb, "Sessions:", s.tasks().size() + " (" + s.completed() + " completed)");
    line(
        sb,
        "Calls / requests per session:",
        Numbers.orDash(s.meanCalls(), 2) + " / " + Numbers.orDash(s.meanRequests(), 2));
    line(
        sb,
        "Task time mean / median / P99 (ms):",
        s.taskMs().count() == 0
            ? "- (no session completed)"
            : Numbers.orDash(s.taskMs().mean(), 1)
                + " / "
                + Numbers.orDash(s.taskMs().median(), 1)
                + " / "
                + Numbers.orDash(s.taskMs().value(Statistic.P99), 1));
    line(
        sb,
        "At the server / tools / agent:",
        Numbers.pctOrDash(s.serverShare())
            + " / "
            + Numbers.pctOrDash(s.toolShare())
            + " / "
            + Numbers.pctOrDash(s.agentShare()));
    sb.append(
        String.format(
            Locale.ROOT,
            "%4s %9s %6s %12s %9s %8s %7s%n",
            "Step",
            "Completed",
            "Failed",
            "Input tokens",
            "Mean TTFT",
            "P99 TTFT",
            "Cached"));
    for (SessionFigures.Step st : s.steps()) {
      sb.append(String.format(Locale.ROOT, "%4s %9s %6s %12s %9s %8s %7s%n", cells(st).toArray()));
    }
    return sb.toString();
  }

  /** A step's cells, the console's and the page's. */
  private static List<Object> cells(SessionFigures.Step st) {
    return PagePart.row(
        st.step(),
        st.completed(),
        st.failed(),
        Numbers.orDash(st.meanInputTokens(), 1),
        Numbers.orDash(st.ttftMeanMs(), 2),
        Numbers.orDash(st.ttftP99Ms(), 2),
        Numbers.pctOrDash(st.cacheHitRate()));
  }

  private static void line(StringBuilder sb, String label, String value) {
    int pad = Math.max(1, ServingResultBlock.WIDTH - label.length() - value.length());
    sb.append(label).append(" ".repeat(pad)).append(value).append('\n');
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<Item> items = new ArrayList<>();
    items.add(
        Note.kit(
            "A session's task time runs from its start to its last call's end; its"
                + " time is at the server while any of its calls is in flight, awaiting tools"
                + " between a call's tool rounds, and the agent's own otherwise. Prefix cache hits"
                + " are the prompt tokens the server said its cache served (vLLM with"
                + " --enable-prompt-tokens-details, llama.cpp's cache_n), over the prompt tokens."));
    List<List<Object>> rows = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      SessionFigures s = l.sessions();
      if (s.isEmpty()) {
        continue;
      }
      rows.add(
          PagePart.row(
              l.name(),
              s.tasks().size(),
              s.completed(),
              Numbers.orDash(s.meanCalls(), 2),
              Numbers.orDash(s.meanRequests(), 2),
              s.taskMs().count() == 0 ? "-" : Numbers.orDash(s.taskMs().mean(), 1),
              s.taskMs().count() == 0 ? "-" : Numbers.orDash(s.taskMs().median(), 1),
              s.taskMs().count() == 0 ? "-" : Numbers.orDash(s.taskMs().value(Statistic.P99), 1),
              Numbers.pctOrDash(s.serverShare()),
              Numbers.pctOrDash(s.toolShare()),
              Numbers.pctOrDash(s.agentShare())));
    }
    items.add(
        new Table(
            "Task time and where it went",
            List.of(
                "Level",
                "Sessions",
                "Completed",
                "Calls each",
                "Requests each",
                "Mean task (ms)",
                "Median task (ms)",
                "P99 task (ms)",
                "At the server",
                "Awaiting tools",
                "Agent's own"),
            rows));
    for (RunAnalysis.Level l : a.levels().values()) {
      if (!l.sessions().isEmpty()) {
        items.add(stepsTable(l));
        items.add(
            Chart.of("llm-chart-steps-" + l.name(), "steps")
                .with("title", "TTFT and prompt length by step (" + l.name() + ")")
                .with("points", points(l.sessions())));
      }
    }
    return List.of(new PagePart("llm-sessions", "Agent sessions", items));
  }

  private static Table stepsTable(RunAnalysis.Level l) {
    List<List<Object>> rows = new ArrayList<>();
    for (SessionFigures.Step st : l.sessions().steps()) {
      rows.add(cells(st));
    }
    return new Table(
        "By step (" + l.name() + "): a call's step is one more than the deepest call it waits for",
        List.of(
            "Step",
            "Completed",
            "Failed",
            "Mean input tokens",
            "Mean TTFT (ms)",
            "P99 TTFT (ms)",
            "Cached"),
        rows);
  }

  private static List<Map<String, Object>> points(SessionFigures s) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (SessionFigures.Step st : s.steps()) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("step", st.step());
      p.put("ttft", Double.isFinite(st.ttftMeanMs()) ? st.ttftMeanMs() : null);
      p.put("ttftP99", Double.isFinite(st.ttftP99Ms()) ? st.ttftP99Ms() : null);
      p.put("input", Double.isFinite(st.meanInputTokens()) ? st.meanInputTokens() : null);
      out.add(p);
    }
    return out;
  }
}
