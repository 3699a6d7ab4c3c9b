package io.github.llmbench.core;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** A per-request latency as {@code vllm bench serve} reports it, in milliseconds. */
public enum Metric {
  TTFT("Time to First Token"),
  TPOT("Time per Output Token (excl. 1st token)"),
  ITL("Inter-token Latency"),
  E2EL("End-to-end Latency");

  /**
   * The metrics a request has one value of (ITL has one per chunk gap): those vLLM's {@code
   * --goodput} sets objectives on.
   */
  public static final List<Metric> PER_REQUEST = List.of(TTFT, TPOT, E2EL);

  private final String title;

  Metric(String title) {
    this.title = title;
  }

  /** The name in settings, gates and {@code summary.json}: {@code ttft}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** As vLLM names it in its rows and Gatling's records: {@code TTFT}. */
  public String label() {
    return name();
  }

  /** vLLM's heading of its block: {@code Time to First Token}. */
  public String title() {
    return title;
  }

  /**
   * The field of {@code summary.json} holding a statistic of it, as vLLM's result JSON names it:
   * {@code p99_ttft_ms}, {@code std_ttft_ms}, {@code p95_ttft_ms}.
   *
   * @param statistic a {@link Statistic#key()}, {@link Statistic#STD} or {@code p} and a percentile
   */
  public String summaryField(String statistic) {
    return statistic + "_" + key() + "_ms";
  }

  /**
   * Whether {@code field} is one of the statistic fields {@link #summaryField} writes, of any
   * metric.
   */
  public static boolean isSummaryField(String field) {
    return SUMMARY_FIELD.matcher(field).matches();
  }

  private static final Pattern SUMMARY_FIELD =
      Pattern.compile(
          "("
              + Statistic.MEAN.key()
              + "|"
              + Statistic.MEDIAN.key()
              + "|"
              + Statistic.STD
              + "|p[0-9.]+)_("
              + String.join("|", Arrays.stream(values()).map(Metric::key).toList())
              + ")_ms");

  /** The metric named {@code key} ({@code ttft}, {@code tpot}, {@code itl}, {@code e2el}). */
  public static Optional<Metric> of(String key) {
    return Arrays.stream(values()).filter(m -> m.key().equals(key)).findFirst();
  }

  /** The accepted names, for error messages: {@code ttft, tpot, itl, e2el}. */
  public static String accepted() {
    return String.join(", ", Arrays.stream(values()).map(Metric::key).toList());
  }

  @Override
  public String toString() {
    return key();
  }
}
