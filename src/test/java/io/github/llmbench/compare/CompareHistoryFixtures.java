package io.github.llmbench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.summary.Summary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Single runs of one level {@code c8} and a history of their key, made by hand: a run's mean TPOT
 * carries a tight within-run interval (as a run writes it), so that without a history a pair of
 * them gets no verdict; the output throughput is {@code 1000 / TPOT}.
 */
public final class CompareHistoryFixtures {
  private CompareHistoryFixtures() {}

  /** The history's runs' mean TPOT: 20 ms at a log sd of about 0.02 between runs. */
  public static final double[] HISTORY_TPOT = {
    20.3, 19.7, 20.5, 19.9, 19.4, 20.2, 20.6, 19.8, 20.0, 19.6, 20.4, 20.1
  };

  /** The served model's id: markup, which a page must show as text. */
  public static final String MODEL = "Qwen/<b>Qwen3</b>-0.6B";

  /** The settings of the history's key; {@code outputLen} changes the key. */
  public static Map<String, String> settings(int outputLen) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("base.url", "http://gpu-box:8000");
    s.put("api", "chat");
    s.put("conc", "8");
    s.put("duration", "10 s per level");
    s.put("dataset", "random");
    s.put("input.len", "128");
    s.put("output.len", Integer.toString(outputLen));
    s.put("seed", "42 (pinned)");
    return s;
  }

  /** A one-level run's summary: mean TPOT with a +-0.5% within-run interval. */
  public static Summary summary(Map<String, String> settings, double tpot) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("date", "20261203-120000");
    json.put("backend", "openai-chat");
    json.put("model_id", MODEL);
    json.put("base_url", "http://gpu-box:8000");
    json.put("endpoint", "/v1/chat/completions");
    json.put("settings", settings);
    Map<String, Object> l = new LinkedHashMap<>();
    l.put("max_concurrency", 8);
    l.put("duration", 10.0);
    l.put("completed", 100);
    l.put("failed", 0);
    l.put("request_throughput", 10.0);
    l.put("output_throughput", 1000 / tpot);
    l.put("mean_tpot_ms", tpot);
    l.put("mean_ttft_ms", 50.0);
    Map<String, Object> within = new LinkedHashMap<>();
    within.put("estimate", tpot);
    within.put("ci_low", tpot * 0.995);
    within.put("ci_high", tpot * 1.005);
    within.put("confidence", 0.95);
    within.put("basis", "within_run");
    l.put("intervals", Map.of("mean_tpot_ms", within));
    json.put("levels", Map.of("c8", l));
    try {
      return Summary.parse(new ObjectMapper().writeValueAsString(json));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A run folder {@code dir/name} with its {@code llm/summary.json}. */
  public static Path runFolder(Path dir, String name, Map<String, String> settings, double tpot)
      throws Exception {
    Path run = dir.resolve(name);
    Path llm = Files.createDirectories(run.resolve("llm"));
    Files.writeString(
        llm.resolve("summary.json"),
        new ObjectMapper().writeValueAsString(summary(settings, tpot)),
        StandardCharsets.UTF_8);
    return run;
  }

  /**
   * A history in {@code dir}: the first {@code runs} of {@link #HISTORY_TPOT} (folders {@code
   * hist-1}, ...) under the key of {@code settings(64)}, then a line for each of {@code compared}
   * (a folder's name and its mean TPOT, alternately), as if the compared runs were kept too.
   */
  public static Path history(Path dir, int runs, Object... compared) throws Exception {
    Instant t = Instant.parse("2026-12-01T00:00:00Z");
    for (int i = 0; i < runs; i++) {
      HistoryFile.append(
          dir,
          HistoryLine.of(
              "hist-" + (i + 1), t.plusSeconds(60L * i), summary(settings(64), HISTORY_TPOT[i])));
    }
    for (int i = 0; i < compared.length; i += 2) {
      HistoryFile.append(
          dir,
          HistoryLine.of(
              (String) compared[i],
              t.plusSeconds(3600L + i),
              summary(settings(64), (Double) compared[i + 1])));
    }
    return dir;
  }
}
