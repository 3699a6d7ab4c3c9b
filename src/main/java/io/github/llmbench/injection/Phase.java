package io.github.llmbench.injection;

import java.util.OptionalInt;

/**
 * One stretch of load, drained fully before the next one starts.
 *
 * @param level the tag of its records ({@code c8}, {@code r2.5}, {@code warmup})
 * @param profile the workload profile it sends, or null for any
 * @param conc closed model: requests in flight; open model: the cap ({@code max.conc}) or 0
 * @param prompts the exact number of requests, or empty to stop after {@code durationSeconds}
 * @param rate open model: requests per second; 0 for the closed model
 * @param burstiness open model: the gamma shape of arrival gaps (1 = Poisson)
 * @param lastOfLevel whether the level's summary can be printed once this phase has drained
 * @param sendTimes a trace replay's send times, in s from the phase's start (then {@code rate}
 *     is only their average); null when arrivals are drawn from the rate
 */
public record Phase(
    String level,
    String profile,
    int conc,
    OptionalInt prompts,
    int durationSeconds,
    double rate,
    double burstiness,
    boolean warmup,
    boolean lastOfLevel,
    java.util.List<Double> sendTimes) {

  public Phase(
      String level, String profile, int conc, OptionalInt prompts, int durationSeconds, double rate, double burstiness,
      boolean warmup, boolean lastOfLevel) {
    this(level, profile, conc, prompts, durationSeconds, rate, burstiness, warmup, lastOfLevel, null);
  }

  public boolean open() {
    return rate > 0;
  }

  /** Whether requests are sent at a trace's times. */
  public boolean trace() {
    return sendTimes != null;
  }

  /** A name unique within the run, for Gatling's scenario. */
  public String scenarioName() {
    return profile == null ? level : level + " " + profile;
  }
}
