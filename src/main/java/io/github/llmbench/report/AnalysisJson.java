package io.github.llmbench.report;

import io.github.llmbench.analysis.FailureReasons;
import io.github.llmbench.analysis.Knee;
import io.github.llmbench.analysis.Roofline;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.SteadyState;
import io.github.llmbench.analysis.TtftTrend;
import io.github.llmbench.analysis.TurnLatency;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON objects {@code summary.json} gains: per level {@code steady_state}, {@code roofline} and
 * {@code failures}; at the top {@code knee} and {@code report_inputs} (the model, GPU and tp the
 * roofline used, which a re-do reuses), and for a single-level run {@code steady_state} and {@code
 * roofline} at the top as well, as the top-level metrics are that level's.
 */
public final class AnalysisJson {

  private AnalysisJson() {}

  /**
   * Per level: {@code {"steady_state": ..., "roofline": ..., "failures": [{"error": ..., "count":
   * N}, ...]}}, the failures' {@value FailureReasons#TOP} most frequent reasons ({@code []} when
   * none failed); {@code "turns"} (TTFT by turn) in multi-turn runs and {@code "trace_lateness"} in
   * trace replays.
   */
  public static Map<String, Map<String, Object>> levelExtras(RunAnalysis a) {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    a.levels()
        .forEach(
            (name, l) -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("steady_state", steadyState(l.steady()));
              m.put("roofline", roofline(l, a));
              m.put("failures", failures(l.failures()));
              if (!l.turns().isEmpty()) {
                m.put("turns", turns(l.turns()));
              }
              if (!l.server().isEmpty()) {
                Map<String, Object> server = new LinkedHashMap<>();
                server.put("level", l.server().level());
                server.put("steady", l.server().steady());
                server.put("guards", l.server().guards());
                m.put("server", server);
              }
              if (!l.lateness().isEmpty()) {
                Map<String, Object> late = new LinkedHashMap<>();
                late.put("requests", l.lateness().requests());
                late.put("median_ms", number(l.lateness().medianMs()));
                late.put("p99_ms", number(l.lateness().p99Ms()));
                late.put("max_ms", number(l.lateness().maxMs()));
                m.put("trace_lateness", late);
              }
              out.put(name, m);
            });
    return out;
  }

  private static List<Map<String, Object>> turns(TurnLatency t) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (TurnLatency.Row r : t.rows()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("turn", r.turn());
      m.put("completed", r.completed());
      m.put("failed", r.failed());
      m.put("mean_input_tokens", number(r.meanInputTokens()));
      m.put(field(Metric.TTFT, Statistic.MEAN), number(r.ttftMeanMs()));
      m.put(field(Metric.TTFT, Statistic.MEDIAN), number(r.ttftMedianMs()));
      m.put(field(Metric.TTFT, Statistic.P99), number(r.ttftP99Ms()));
      out.add(m);
    }
    return out;
  }

  /** A figure, or null where there is none (JSON has no NaN). */
  private static Double number(double v) {
    return Double.isFinite(v) ? v : null;
  }

  private static List<Map<String, Object>> failures(FailureReasons f) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (FailureReasons.Reason r : f.top()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("error", r.error());
      m.put("count", r.count());
      out.add(m);
    }
    return out;
  }

  /** Top level: {@code knee}, {@code report_inputs}, and for one level its two blocks. */
  public static Map<String, Object> topExtras(RunAnalysis a) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (a.levels().size() == 1) {
      RunAnalysis.Level l = a.levels().values().iterator().next();
      m.put("steady_state", steadyState(l.steady()));
      m.put("roofline", roofline(l, a));
    }
    m.put("knee", knee(a.knee()));
    Map<String, Object> in = new LinkedHashMap<>();
    in.put("model", a.model() == null ? null : a.model().id());
    in.put("model_name", a.model() == null ? null : a.model().hfId());
    in.put("gpu", a.gpu() == null ? null : a.gpu().id());
    in.put("tp", a.tp());
    m.put("report_inputs", in);
    return m;
  }

  public static Map<String, Object> steadyState(SteadyState s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("concurrency", s.concurrency());
    m.put("concurrency_observed", s.concurrencyObserved());
    m.put("threshold", s.threshold());
    m.put("reached", s.reached());
    m.put("window_start_s", s.windowStartS());
    m.put("window_end_s", s.windowEndS());
    m.put("window_s", s.windowS());
    m.put("observed_peak_concurrency", s.observedPeak());
    m.put("requests", s.requests());
    m.put("started_in_window", s.startedInWindow());
    m.put("completed_in_window", s.completedInWindow());
    m.put("request_throughput", s.requestThroughput());
    m.put("output_throughput", s.outputThroughput());
    m.put("input_throughput", s.inputThroughput());
    m.put("total_token_throughput", s.totalThroughput());
    for (Statistic stat : List.of(Statistic.MEAN, Statistic.MEDIAN, Statistic.P99, Statistic.P90)) {
      m.put(field(Metric.TTFT, stat), s.ttft().value(stat));
    }
    for (Statistic stat : Statistic.values()) {
      m.put(field(Metric.TPOT, stat), s.tpot().value(stat));
    }
    m.put("mean_in_flight", s.meanInFlight());
    m.put("mean_context_tokens", s.meanContextTokens());
    m.put("mean_prompt_tokens", s.meanPromptTokens());
    m.put("ttft_trend", trend(s.ttftTrend()));
    return m;
  }

  static Map<String, Object> trend(TtftTrend t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("evaluated", t.evaluated());
    m.put("points", t.points());
    m.put("slope_ms_per_s", t.slopeMsPerS());
    m.put("slope_std_err", t.slopeStdErr());
    m.put("rise_ms", t.riseMs());
    m.put("growing", t.growing());
    return m;
  }

  public static Map<String, Object> roofline(RunAnalysis.Level l, RunAnalysis a) {
    Map<String, Object> m = new LinkedHashMap<>();
    Roofline r = l.roofline();
    if (r == null) {
      m.put("skipped", l.rooflineNote());
      return m;
    }
    m.put("model", a.model().id());
    m.put("model_name", a.model().hfId());
    m.put("gpu", a.gpu().id());
    m.put("tp", a.tp());
    m.put("peak_flops", r.peakFlops());
    m.put("bandwidth_bytes_per_s", r.bandwidth());
    m.put("ridge_flop_per_byte", r.ridge());
    m.put("mean_batch", r.meanBatch());
    m.put("mean_context_tokens", r.meanContext());
    m.put("mean_prompt_tokens", r.meanPrompt());
    m.put("flops_per_token", r.flopsPerToken());
    m.put("prefill_flops_per_token", r.prefillFlopsPerToken());
    m.put("step_bytes", r.stepBytes());
    m.put("step_read_ms", r.stepReadS() * 1e3);
    m.put("output_tokens_per_s", r.outputTps());
    m.put("prefill_tokens_per_s", r.prefillTps());
    m.put("decode", point(r.decode()));
    m.put("whole_workload", point(r.whole()));
    m.put("note", r.prefixCacheNote());
    m.put("prefix_cache_share", r.cachedShare());
    return m;
  }

  static Map<String, Object> point(Roofline.Point p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("operational_intensity", p.oi());
    m.put("attained_flops", p.attainedFlops());
    m.put("roof_flops", p.roofFlops());
    m.put("attainment", p.attainment());
    m.put("roof", p.computeBound() ? "compute" : "bandwidth");
    return m;
  }

  public static Map<String, Object> knee(Knee.Result k) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("throughput_basis", k.basis());
    List<Map<String, Object>> pts = new ArrayList<>();
    for (Knee.Point p : k.points()) {
      Map<String, Object> pm = new LinkedHashMap<>();
      pm.put("level", p.level());
      pm.put("concurrency", p.concurrency());
      pm.put("output_throughput", p.outputThroughput());
      pm.put(field(Metric.TPOT, Statistic.MEAN), p.meanTpotMs());
      pm.put(field(Metric.TTFT, Statistic.P99), p.p99TtftMs());
      pm.put(field(Metric.E2EL, Statistic.MEAN), p.meanE2elMs());
      pm.put("power", p.power());
      pm.put("ttft_growing", p.ttftTrend() != null && p.ttftTrend().growing());
      pts.add(pm);
    }
    m.put("levels", pts);
    if (k.fit() == null) {
      m.put("fit", null);
    } else {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("break_concurrency", k.fit().breakConcurrency());
      f.put("pre_slope", k.fit().preSlope());
      f.put("tail_slope", k.fit().tailSlope());
      f.put("slope_ratio", k.fit().slopeRatio());
      f.put("fit_improvement", k.fit().fitImprovement());
      m.put("fit", f);
    }
    m.put("knee_level", k.kneeLevel());
    m.put("knee_verdict", k.kneeVerdict());
    m.put("power_level", k.powerLevel());
    m.put("power_verdict", k.powerVerdict());
    m.put("saturation_level", k.saturationLevel());
    m.put("saturation_verdict", k.saturationVerdict());
    m.put("over_saturated", k.overSaturated());
    m.put("over_saturated_levels", k.overSaturatedLevels());
    m.put("over_saturation_verdict", k.overSaturationVerdict());
    return m;
  }

  /** A latency figure's field, as in vLLM's result JSON: {@code p99_ttft_ms}. */
  private static String field(Metric metric, Statistic stat) {
    return new LatencyFigure(metric, stat).summaryField();
  }
}
