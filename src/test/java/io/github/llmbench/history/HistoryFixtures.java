package io.github.llmbench.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.summary.Summary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Summaries and history lines made by hand, as a run against the simulator writes them. */
final class HistoryFixtures {
  private HistoryFixtures() {}

  static final Map<String, String> SETTINGS =
      Map.of(
          "base.url", "(none: embedded vLLM simulator)",
          "api", "chat",
          "conc", "8",
          "duration", "10 s per level",
          "dataset", "random",
          "input.len", "128",
          "output.len", "64",
          "seed", "42 (pinned)",
          "sim.model", "llama-3.1-8b",
          "sim.gpu", "h100");

  /**
   * A summary of one level {@code c8} whose trials have these mean TPOTs (ms); the output
   * throughput is 1000 / TPOT.
   */
  static Summary summary(Map<String, String> settings, String level, double... tpotMeans) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("date", "20261203-120000");
    json.put("backend", "vllm-simulator");
    json.put("model_id", "llama-3.1-8b");
    json.put("base_url", "http://user:secret@127.0.0.1:8000");
    json.put("settings", settings);
    List<Map<String, Object>> trials = new ArrayList<>();
    for (int i = 0; i < tpotMeans.length; i++) {
      Map<String, Object> t = figures(tpotMeans[i]);
      t.put("trial", i + 1);
      t.put("steady_output_throughput", 900 / tpotMeans[i]);
      trials.add(t);
    }
    double mean = 0;
    for (double v : tpotMeans) {
      mean += v / tpotMeans.length;
    }
    Map<String, Object> l = figures(mean);
    if (tpotMeans.length > 1) {
      l.put("trials", trials);
    }
    json.put("levels", Map.of(level, l));
    try {
      return Summary.parse(new ObjectMapper().writeValueAsString(json));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Object> figures(double tpot) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("duration", 10.0);
    f.put("completed", 100);
    f.put("failed", 0);
    f.put("total_input_tokens", 12800);
    f.put("total_output_tokens", 6400);
    f.put("request_throughput", 10.0);
    f.put("output_throughput", 1000 / tpot);
    f.put("mean_tpot_ms", tpot);
    f.put("median_tpot_ms", tpot * 0.98);
    f.put("p99_tpot_ms", tpot * 1.5);
    f.put("mean_ttft_ms", 50.0);
    return f;
  }

  /** A run's line: folder {@code run-<i>}, ended {@code i} minutes after a fixed time. */
  static HistoryLine line(int i, Summary s) {
    return HistoryLine.of(
        "run-" + i, Instant.parse("2026-12-01T00:00:00Z").plusSeconds(60L * i), s);
  }

  /** Runs with these mean TPOTs (one trial each), in order. */
  static List<HistoryLine> runs(double... tpots) {
    List<HistoryLine> out = new ArrayList<>();
    for (int i = 0; i < tpots.length; i++) {
      out.add(line(i + 1, summary(SETTINGS, "c8", tpots[i])));
    }
    return out;
  }
}
