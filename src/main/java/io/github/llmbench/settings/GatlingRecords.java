package io.github.llmbench.settings;

import io.github.llmbench.core.Metric;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The records group of settings: what Gatling's stats get of each stream ({@code -Dstats.records}):
 * always the stream itself, one record from its send to its end (E2EL), so Gatling's counts are
 * streams and its response times E2EL; {@code latency} adds TTFT and TPOT records, {@code all} also
 * one ITL record per gap between chunks (a cost per chunk).
 */
public enum GatlingRecords {
  REQUEST(EnumSet.of(Metric.E2EL)),
  LATENCY(EnumSet.of(Metric.E2EL, Metric.TTFT, Metric.TPOT)),
  ALL(EnumSet.allOf(Metric.class));

  private static final String HEADING = SettingsTable.SCALE;

  public static final Setting<GatlingRecords> STATS_RECORDS =
      Setting.of(
          HEADING,
          "stats.records",
          REQUEST,
          "request, latency or all",
          "Gatling's records per stream: the request (E2EL); latency: + TTFT, TPOT; all: + ITL per chunk gap",
          GatlingRecords::parse);

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS = List.of(STATS_RECORDS);

  private final Set<Metric> metrics;

  GatlingRecords(Set<Metric> metrics) {
    this.metrics = Collections.unmodifiableSet(metrics);
  }

  /** The latencies Gatling's stats hold, E2EL as the stream's own record. */
  public Set<Metric> metrics() {
    return metrics;
  }

  /** As written in {@code -Dstats.records}: {@code request}, {@code latency}, {@code all}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  static GatlingRecords parse(String name, String raw) {
    for (GatlingRecords g : values()) {
      if (g.id().equals(raw)) {
        return g;
      }
    }
    throw SettingsException.invalid(name, raw, "one of all, latency, request");
  }
}
