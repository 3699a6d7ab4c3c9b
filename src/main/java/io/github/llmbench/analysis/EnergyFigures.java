package io.github.llmbench.analysis;

import java.util.Map;
import java.util.NavigableMap;

/**
 * The energy the GPUs used for one level, per output token: from NVIDIA's DCGM exporter's energy
 * counter ({@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION}, mJ since boot, added up over the GPUs)
 * over the level, where the kit scrapes between levels so the counter holds the level's own
 * traffic; else its power readings ({@code DCGM_FI_DEV_POWER_USAGE}) integrated over the level's
 * steady window (else the level), with the output tokens of that window. Pure.
 *
 * @param source where the joules come from ({@link Source#NONE}: no DCGM figure)
 * @param joules the GPUs' energy over the window, all GPUs together
 * @param seconds the window's length, between the scrapes that bound it
 * @param gpus how many GPUs reported
 * @param outputTokens the output tokens the client received over the window
 * @param simulated whether the readings are the kit's simulator's (labelled {@code simulated})
 */
public record EnergyFigures(
    Source source,
    double joules,
    double seconds,
    int gpus,
    double outputTokens,
    boolean simulated) {

  static final String ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
  static final String POWER = "DCGM_FI_DEV_POWER_USAGE";

  /** Joules per kWh. */
  private static final double JOULES_PER_KWH = 3.6e6;

  /** Where a level's joules come from. */
  public enum Source {
    NONE("none", "no DCGM figure"),
    ENERGY_COUNTER("dcgm_energy_counter", "DCGM energy counter over the level"),
    POWER_INTEGRATED("dcgm_power_integrated", "DCGM power integrated over the steady window");

    private final String key;
    private final String text;

    Source(String key, String text) {
      this.key = key;
      this.text = text;
    }

    /** As {@code summary.json} writes it. */
    public String key() {
      return key;
    }

    @Override
    public String toString() {
      return text;
    }

    /** The source {@code summary.json} names, {@link #NONE} for anything else. */
    public static Source ofKey(String key) {
      for (Source s : values()) {
        if (s.key.equals(key)) {
          return s;
        }
      }
      return NONE;
    }
  }

  public static final EnergyFigures NONE = new EnergyFigures(Source.NONE, 0, 0, 0, 0, false);

  /** Whether the level has energy figures. */
  public boolean measured() {
    return source != Source.NONE && seconds > 0 && gpus > 0;
  }

  /** Joules per output token; NaN without figures or tokens. */
  public double joulesPerOutputToken() {
    return measured() && outputTokens > 0 ? joules / outputTokens : Double.NaN;
  }

  /** Output tokens per kWh; NaN without figures or energy. */
  public double outputTokensPerKwh() {
    return measured() && joules > 0 ? outputTokens / (joules / JOULES_PER_KWH) : Double.NaN;
  }

  /** The average power of one GPU over the window, in W; NaN without figures. */
  public double wattsPerGpu() {
    return measured() ? joules / seconds / gpus : Double.NaN;
  }

  /**
   * A level's energy.
   *
   * @param levelOutputTokens the output tokens the client received over the level
   * @param steadyStartMs its steady window's start, 0 without one
   * @param steadyOutputTokensPerS the output throughput over that window
   */
  public static EnergyFigures of(
      ServerFigures.Series series,
      long startMs,
      long endMs,
      long levelOutputTokens,
      long steadyStartMs,
      long steadyEndMs,
      double steadyOutputTokensPerS) {
    boolean simulated = series.labelled(POWER, "simulated", "true");
    NavigableMap<Long, Double> energy = series.gauge(java.util.List.of(ENERGY));
    Map.Entry<Long, Double> base = energy.floorEntry(startMs);
    Map.Entry<Long, Double> end = energy.ceilingEntry(endMs);
    if (base != null && end != null && end.getKey() > base.getKey()) {
      double joules = (end.getValue() - base.getValue()) / 1000;
      if (joules >= 0) {
        return new EnergyFigures(
            Source.ENERGY_COUNTER,
            joules,
            (end.getKey() - base.getKey()) / 1000.0,
            series.labelSets(ENERGY),
            levelOutputTokens,
            simulated);
      }
    }
    boolean steady = steadyStartMs > 0 && steadyEndMs > steadyStartMs;
    return integrated(
        series,
        steady ? steadyStartMs : startMs,
        steady ? steadyEndMs : endMs,
        steady ? -1 : levelOutputTokens,
        steadyOutputTokensPerS,
        simulated);
  }

  /**
   * The power readings integrated (trapezoids) between the first and last scrape inside the window;
   * the tokens are the level's ({@code tokens} at least 0) or the throughput times the integrated
   * seconds.
   */
  private static EnergyFigures integrated(
      ServerFigures.Series series,
      long fromMs,
      long toMs,
      long tokens,
      double tokensPerS,
      boolean simulated) {
    NavigableMap<Long, Double> watts =
        series.gauge(java.util.List.of(POWER)).subMap(fromMs, true, toMs, true);
    if (watts.size() < 2) {
      return NONE;
    }
    double joules = 0;
    Map.Entry<Long, Double> prev = null;
    for (Map.Entry<Long, Double> e : watts.entrySet()) {
      if (prev != null) {
        joules += (e.getKey() - prev.getKey()) / 1000.0 * (e.getValue() + prev.getValue()) / 2;
      }
      prev = e;
    }
    double seconds = (watts.lastKey() - watts.firstKey()) / 1000.0;
    return new EnergyFigures(
        Source.POWER_INTEGRATED,
        joules,
        seconds,
        series.labelSets(POWER),
        tokens >= 0 ? tokens : tokensPerS * seconds,
        simulated);
  }
}
