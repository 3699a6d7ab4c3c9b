package io.github.llmbench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.Percentiles;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code summary.json}: the figures under the field names of {@code vllm bench serve
 * --save-result}, so vLLM tooling can read it.
 *
 * <p>Layout: run metadata given by the caller first (e.g. {@code date}, {@code backend}, {@code
 * model_id}, {@code base_url}, {@code api}, input/output lengths, settings; any JSON-able values,
 * nested maps included), then the overall metrics at the top level ({@code duration}, {@code
 * completed}, {@code failed}, {@code total_input_tokens}, {@code total_output_tokens}, {@code
 * request_throughput}, {@code output_throughput}, {@code total_token_throughput}, {@code
 * max_output_tokens_per_s}, {@code max_concurrent_requests}, {@code max_concurrency}, {@code
 * output_tokens_estimated_count}, then for ttft, tpot, itl, e2el: {@code mean_X_ms}, {@code
 * median_X_ms}, {@code std_X_ms} and {@code pP_X_ms} for each reported percentile plus p90 and
 * p99), and, for a run with several levels, {@code "levels": {"c8": {...}, "c16": {...}}} with the
 * same metric fields per level.
 *
 * <p>Metric fields win over metadata of the same name. Metadata whose key names a secret ({@code
 * api_key}, {@code authorization}, {@code password}, {@code secret}, {@code bearer}, {@code
 * credential}, also nested) is dropped, and user info in URL strings ({@code
 * https://user:pass@host}) is removed: a summary never carries an API key.
 */
public final class SummaryJson {

  /** vLLM's {@code date} format, {@code %Y%m%d-%H%M%S}. */
  public static final DateTimeFormatter DATE_FORMAT =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

  private static final Pattern SECRET_KEY =
      Pattern.compile(
          "(?i).*(api[_-]?key|authorization|password|passwd|secret|bearer|credential|access[_-]?token|auth[_-]?token).*");

  private static final Pattern URL_USERINFO =
      Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@]*@");

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private SummaryJson() {}

  /** {@code date} as vLLM writes it, e.g. {@code 20250101-120000}. */
  public static String date(LocalDateTime time) {
    return DATE_FORMAT.format(time);
  }

  /** The metric fields of one level (or of the whole run), in vLLM's names and order. */
  public static Map<String, Object> metricFields(ServingMetrics m) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("duration", m.durationS());
    f.put("completed", m.completed());
    f.put("failed", m.failed());
    f.put("total_input_tokens", m.totalInputTokens());
    f.put("total_output_tokens", m.totalOutputTokens());
    f.put("request_throughput", m.requestThroughput());
    f.put("output_throughput", m.outputThroughput());
    f.put("total_token_throughput", m.totalTokenThroughput());
    f.put("max_output_tokens_per_s", m.maxOutputTokensPerS());
    f.put("max_concurrent_requests", m.maxConcurrentRequests());
    f.put("max_concurrency", m.maxConcurrency());
    f.put("output_tokens_estimated_count", m.outputTokensEstimatedCount());
    for (Metric metric : Metric.values()) {
      putStats(f, metric, m.latency(metric));
    }
    return f;
  }

  /** A single-level summary: metadata then metric fields. */
  public static Map<String, Object> build(Map<String, ?> metadata, ServingMetrics overall) {
    return build(metadata, overall, Map.of());
  }

  /**
   * A summary: metadata, the overall metric fields at the top level and, when {@code levels} is not
   * empty, a {@code "levels"} object with each level's metric fields in the map's order.
   */
  public static Map<String, Object> build(
      Map<String, ?> metadata, ServingMetrics overall, Map<String, ServingMetrics> levels) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (metadata != null) {
      out.putAll(sanitize(metadata));
    }
    out.putAll(metricFields(overall));
    if (levels != null && !levels.isEmpty()) {
      Map<String, Object> byLevel = new LinkedHashMap<>();
      levels.forEach((level, m) -> byLevel.put(level, metricFields(m)));
      out.put("levels", byLevel);
    }
    return out;
  }

  /**
   * A summary with the report's additions: as {@link #build(Map, ServingMetrics, Map)}, then each
   * level's object gains the entries of {@code levelExtras.get(level)} (e.g. {@code steady_state},
   * {@code roofline}) after its metric fields, and the top level gains {@code topExtras} (e.g.
   * {@code knee}) at the end. {@code levels} is written even for a single level.
   */
  public static Map<String, Object> build(
      Map<String, ?> metadata,
      ServingMetrics overall,
      Map<String, ServingMetrics> levels,
      Map<String, ? extends Map<String, ?>> levelExtras,
      Map<String, ?> topExtras) {
    Map<String, Object> out = build(metadata, overall, levels);
    Object byLevel = out.get("levels");
    if (byLevel instanceof Map<?, ?> map && levelExtras != null) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        Map<String, ?> extra = levelExtras.get(String.valueOf(e.getKey()));
        if (extra != null && e.getValue() instanceof Map<?, ?> fields) {
          @SuppressWarnings("unchecked")
          Map<String, Object> f = (Map<String, Object>) fields;
          f.putAll(extra);
        }
      }
    }
    if (topExtras != null) {
      topExtras.forEach(
          (k, v) -> {
            out.remove(k);
            out.put(k, v);
          });
    }
    return out;
  }

  /** The top-level keys {@link #metricFields} writes (with the default percentiles 90, 99). */
  public static Set<String> metricFieldNames() {
    return metricFields(
            ServingMetricsCalculator.compute(List.of(), null, LatencyStats.DEFAULT_PERCENTILES))
        .keySet();
  }

  /** The summary as pretty-printed JSON text. */
  public static String toJson(Map<String, ?> summary) {
    try {
      return MAPPER.writeValueAsString(summary);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("summary not serialisable: " + e.getMessage(), e);
    }
  }

  /** Writes the summary to {@code file} (UTF-8, parent directories created). */
  public static void write(Path file, Map<String, ?> summary) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, toJson(summary) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static void putStats(Map<String, Object> f, Metric metric, LatencyStats s) {
    f.put(new LatencyFigure(metric, Statistic.MEAN).summaryField(), s.mean());
    f.put(new LatencyFigure(metric, Statistic.MEDIAN).summaryField(), s.median());
    f.put(metric.summaryField(Statistic.STD), s.std());
    s.percentiles().forEach((p, v) -> f.put(metric.summaryField("p" + Percentiles.label(p)), v));
  }

  /** Metadata without secret-named keys and with URL user info removed, recursively. */
  static Map<String, Object> sanitize(Map<String, ?> metadata) {
    Map<String, Object> out = new LinkedHashMap<>();
    metadata.forEach(
        (k, v) -> {
          if (k != null && !SECRET_KEY.matcher(k).matches()) {
            out.put(k, sanitizeValue(v));
          }
        });
    return out;
  }

  private static Object sanitizeValue(Object v) {
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> nested = new LinkedHashMap<>();
      map.forEach((k, x) -> nested.put(String.valueOf(k), x));
      return sanitize(nested);
    }
    if (v instanceof String s) {
      return URL_USERINFO.matcher(s).replaceFirst("$1");
    }
    return v;
  }
}
