package io.github.llmbench.report.section;

import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.Percentiles;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import java.util.Locale;

/**
 * The end-of-run console block, laid out like {@code vllm bench serve}'s "Serving Benchmark
 * Result": rows are Python's {@code "{:<40} {:<10}"} (label left-aligned in 40 columns, one space,
 * value left-aligned in 10, so rows carry trailing spaces), floats {@code {:<10.2f}}; headers are
 * {@code "{s:{c}^{n}}"}, centred with {@code =} or {@code -} in 60 columns (the layout of the seed
 * run; recent vLLM releases use 50 columns); the block ends with 60 {@code =}.
 *
 * <p>Numbers use {@link Locale#ROOT} and Python's rounding for {@code .2f} (half-even on the exact
 * binary value). When some outputs were estimated (no usage chunk), one note line follows the
 * block.
 *
 * <p>A pooling run's block (embeddings, {@code Figures.POOLED}) is vLLM's for its pooling task: no
 * generated tokens, no output throughputs, no TTFT, TPOT or ITL; its total token throughput is the
 * input's, and its one latency section is E2EL's.
 */
public final class ServingResultBlock {

  /** The default title; a multi-level run uses e.g. {@code "Serving Benchmark Result (c128)"}. */
  public static final String DEFAULT_TITLE = "Serving Benchmark Result";

  /** Width of header lines and of the closing line. */
  public static final int WIDTH = 60;

  private ServingResultBlock() {}

  /**
   * The title of one level's block in a multi-level run: {@code Serving Benchmark Result (c128)}.
   */
  public static String titleFor(String level) {
    return level == null || level.isBlank() ? DEFAULT_TITLE : DEFAULT_TITLE + " (" + level + ")";
  }

  /** The block with the default title. */
  public static String format(ServingMetrics m) {
    return format(m, DEFAULT_TITLE);
  }

  /**
   * The block, lines separated and ended by {@code \n}.
   *
   * @param title the title in the first line, without the surrounding spaces; null or blank gives
   *     {@link #DEFAULT_TITLE}
   */
  public static String format(ServingMetrics m, String title) {
    String t = title == null || title.isBlank() ? DEFAULT_TITLE : title.strip();
    StringBuilder sb = new StringBuilder();
    line(sb, center(" " + t + " ", '=', WIDTH));
    row(sb, "Successful requests:", Integer.toString(m.completed()));
    row(sb, "Failed requests:", Integer.toString(m.failed()));
    if (m.cancelled() > 0) {
      row(sb, "Cancelled requests:", Integer.toString(m.cancelled()));
    }
    if (m.maxConcurrency() != null) {
      row(sb, "Maximum request concurrency:", Integer.toString(m.maxConcurrency()));
    }
    row(sb, "Benchmark duration (s):", Numbers.f2(m.durationS()));
    row(sb, "Total input tokens:", Long.toString(m.totalInputTokens()));
    if (m.endpointFigures().generates()) {
      row(sb, "Total generated tokens:", Long.toString(m.totalOutputTokens()));
    }
    row(sb, "Request throughput (req/s):", Numbers.f2(m.requestThroughput()));
    if (!m.endpointFigures().generates()) {
      // vLLM's input sequences per second: the kit sends one input per request
      row(sb, "Input throughput (inputs/s):", Numbers.f2(m.requestThroughput()));
    } else {
      row(sb, "Output token throughput (tok/s):", Numbers.f2(m.outputThroughput()));
      row(sb, "Peak output token throughput (tok/s):", Numbers.f2(m.maxOutputTokensPerS()));
      row(sb, "Peak concurrent requests:", Numbers.f2(m.maxConcurrentRequests()));
    }
    row(sb, "Total token throughput (tok/s):", Numbers.f2(m.totalTokenThroughput()));
    for (Metric metric : m.metrics()) {
      section(sb, m, metric);
    }
    line(sb, "=".repeat(WIDTH));
    if (m.outputTokensEstimatedCount() > 0) {
      line(sb, estimatedNote(m));
    }
    return sb.toString();
  }

  /** The note printed after the block when some output token counts were estimated. */
  static String estimatedNote(ServingMetrics m) {
    return String.format(
        Locale.ROOT,
        "Note: %d of %d successful requests had no usage chunk: their output tokens are the"
            + " count of text chunks (an underestimate when a chunk carries several tokens),"
            + " which affects the token totals, throughputs and TPOT.",
        m.outputTokensEstimatedCount(),
        m.completed());
  }

  private static void section(StringBuilder sb, ServingMetrics m, Metric metric) {
    LatencyStats s = m.latency(metric);
    String name = metric.label();
    line(sb, center(metric.title(), '-', WIDTH));
    row(sb, Statistic.MEAN.label() + " " + name + " (ms):", Numbers.f2(s.mean()));
    row(sb, Statistic.MEDIAN.label() + " " + name + " (ms):", Numbers.f2(s.median()));
    for (double p : m.percentiles()) {
      row(sb, "P" + Percentiles.label(p) + " " + name + " (ms):", Numbers.f2(s.percentile(p)));
    }
  }

  /** Python {@code "{:<40} {:<10}".format(label, value)}. */
  public static String rowText(String label, String value) {
    return padRight(label, 40) + " " + padRight(value, 10);
  }

  /** Python {@code "{s:{c}^{n}}"}: extra padding goes to the right. */
  public static String center(String s, char fill, int width) {
    int pad = width - s.length();
    if (pad <= 0) {
      return s;
    }
    int left = pad / 2;
    return String.valueOf(fill).repeat(left) + s + String.valueOf(fill).repeat(pad - left);
  }

  /** A label-value row of the kit's own blocks, as vLLM's rows, without trailing spaces. */
  static void labelled(StringBuilder sb, String label, String value) {
    sb.append(rowText(label, value).stripTrailing()).append('\n');
  }

  private static void row(StringBuilder sb, String label, String value) {
    line(sb, rowText(label, value));
  }

  private static void line(StringBuilder sb, String text) {
    sb.append(text).append('\n');
  }

  private static String padRight(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }
}
