package io.github.llmbench.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** A per-request latency as {@code vllm bench serve} reports it, in milliseconds. */
public enum Metric {
  TTFT("Time to First Token"),
  TPOT("Time per Output Token (excl. 1st token)"),
  ITL("Inter-token Latency"),
  E2EL("End-to-end Latency");

  private final String title;

  Metric(String title) {
    this.title = title;
  }

  /** The name in settings, gates and {@code summary.json}: {@code ttft}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** vLLM's heading of its block: {@code Time to First Token}. */
  public String title() {
    return title;
  }

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
