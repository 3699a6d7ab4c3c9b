package io.github.llmbench.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A statistic of a latency metric, e.g. {@code tpot.p99}: what gates, {@code -Dslo} objectives,
 * Gatling assertions and the capacity search's probes compare with a limit.
 */
public record LatencyFigure(Metric metric, Statistic statistic)
    implements SloFigure, Comparable<LatencyFigure> {

  /**
   * Every standard figure ({@link Statistic#STANDARD}), metric by metric in vLLM's order, each with
   * its statistics in order; any other percentile ({@code ttft.p99.9}) is a figure too.
   */
  public static final List<LatencyFigure> ALL = all();

  /** As written in settings and {@code summary.json}'s gates: {@code tpot.p99}. */
  @Override
  public String key() {
    return metric.key() + "." + statistic.key();
  }

  /** As reports head it: {@code P99 TPOT}. */
  public String label() {
    return statistic.label() + " " + metric.label();
  }

  /** The figure of a metric's statistic. */
  public static LatencyFigure of(Metric metric, Statistic statistic) {
    return new LatencyFigure(metric, statistic);
  }

  /**
   * The field of {@code summary.json} that holds it, as vLLM's result JSON: {@code p99_tpot_ms}.
   */
  public String summaryField() {
    return metric.summaryField(statistic.key());
  }

  /** The figure named {@code key} ({@code ttft.p99}, {@code itl.p99.9}), or empty. */
  public static Optional<LatencyFigure> parse(String key) {
    int dot = key.indexOf('.');
    if (dot < 0) {
      return Optional.empty();
    }
    Optional<Metric> m = Metric.of(key.substring(0, dot));
    Optional<Statistic> s = Statistic.of(key.substring(dot + 1));
    return m.isPresent() && s.isPresent()
        ? Optional.of(new LatencyFigure(m.get(), s.get()))
        : Optional.empty();
  }

  /** The accepted names, for error messages. */
  public static String accepted() {
    return "METRIC.STAT with METRIC one of "
        + Metric.accepted()
        + " and STAT one of "
        + Statistic.accepted();
  }

  private static List<LatencyFigure> all() {
    List<LatencyFigure> all = new ArrayList<>();
    for (Metric m : Metric.values()) {
      for (Statistic s : Statistic.STANDARD) {
        all.add(new LatencyFigure(m, s));
      }
    }
    return List.copyOf(all);
  }

  /**
   * The figure whose {@code summary.json} field is {@code field} ({@code p99.9_ttft_ms}), or empty
   * ({@code std_ttft_ms} is no figure).
   */
  public static Optional<LatencyFigure> ofSummaryField(String field) {
    if (!field.endsWith("_ms")) {
      return Optional.empty();
    }
    String rest = field.substring(0, field.length() - "_ms".length());
    int us = rest.lastIndexOf('_');
    return us < 0
        ? Optional.empty()
        : parse(rest.substring(us + 1) + "." + rest.substring(0, us))
            .filter(f -> f.summaryField().equals(field));
  }

  @Override
  public int compareTo(LatencyFigure o) {
    return key().compareTo(o.key());
  }

  @Override
  public String toString() {
    return key();
  }
}
