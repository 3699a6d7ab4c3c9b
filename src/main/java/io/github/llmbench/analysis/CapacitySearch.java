package io.github.llmbench.analysis;

import io.github.llmbench.core.SloFigure;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The search for the highest load that meets service-level objectives (capacity at SLO): probe the
 * lowest load, grow it geometrically (x2) while the objectives hold, then bisect between the
 * highest load that met them and the lowest that broke one, until the two are within the precision.
 * Pure: it proposes the next load from the probes so far, and judges them; running a probe (a level
 * of the load) is the caller's.
 *
 * <p>Noise: a probe is judged once. A load that met the objectives above one that broke them (a
 * noisy level near the edge) does not move the bracket's top: the capacity is the highest met load
 * below the lowest broken one, so the bracket stays consistent.
 *
 * @param min the lowest load probed (first)
 * @param max the highest load probed
 * @param precision the bracket is done when (lowest broken - highest met) <= precision x highest
 *     met
 * @param whole whether loads are whole numbers (concurrency) or not (request rates, proposed to 3
 *     significant digits: bisection stops when the midpoint rounds onto an end of the bracket)
 */
public record CapacitySearch(double min, double max, double precision, boolean whole) {

  /**
   * One objective: a figure of a probe ({@code ttft.p99}, {@code failed.pct}) and its upper limit.
   */
  public record Objective(SloFigure figure, double limit) {
    @Override
    public String toString() {
      return figure.key() + " <= " + limit;
    }
  }

  /**
   * One probed load and how it did.
   *
   * @param broken the objectives it broke, each as {@code ttft.p99 2450.00 > 2000.00 (+22.5%)};
   *     empty when met
   * @param figures the probe's figures it was judged on
   */
  public record Probe(double load, List<String> broken, Map<SloFigure, Double> figures) {
    public boolean met() {
      return broken.isEmpty();
    }
  }

  /**
   * What the search found.
   *
   * @param capacity the highest load that met every objective (below the lowest that broke one), or
   *     null
   * @param lowestBroken the lowest load that broke one, or null
   * @param status {@code bracketed}, {@code never met} (broken at the lowest load), {@code always
   *     met} (met at the highest), or {@code not bracketed} (stopped before, e.g. out of time)
   */
  public record Verdict(Double capacity, Double lowestBroken, String status, List<Probe> probes) {}

  public CapacitySearch {
    if (!(min > 0) || !(max >= min) || !(precision > 0)) {
      throw new IllegalArgumentException(
          "search bounds: 0 < min <= max and precision > 0: "
              + min
              + ", "
              + max
              + ", "
              + precision);
    }
  }

  /** Judges a probe's figures against the objectives (a missing figure breaks its objective). */
  public static Probe judge(
      double load, Map<SloFigure, Double> figures, List<Objective> objectives) {
    List<String> broken = new ArrayList<>();
    for (Objective o : objectives) {
      Double v = figures.get(o.figure());
      if (v == null || v.isNaN()) {
        broken.add(o.figure().key() + " not measured");
      } else if (v > o.limit()) {
        broken.add(
            String.format(
                Locale.ROOT,
                "%s %.2f > %.2f (%+.1f%%)",
                o.figure().key(),
                v,
                o.limit(),
                o.limit() == 0 ? Double.POSITIVE_INFINITY : 100 * (v - o.limit()) / o.limit()));
      }
    }
    return new Probe(load, broken, figures);
  }

  /** The next load to probe after {@code probes}, or empty when the search is done. */
  public OptionalDouble next(List<Probe> probes) {
    if (probes.isEmpty()) {
      return OptionalDouble.of(min);
    }
    Verdict v = verdict(probes);
    if (!v.status().equals("not bracketed")) {
      return OptionalDouble.empty();
    }
    double proposed;
    if (v.lowestBroken()
        == null) { // still growing: doubled, or the maximum itself (a rate rounded to
      double doubled = v.capacity() * 2; // 3 digits could otherwise never reach a max like 1024)
      proposed = doubled >= max ? max : round(doubled);
    } else {
      proposed = midpoint(v.capacity(), v.lowestBroken());
    }
    // never the same load twice: its records would be one level, judged as one
    return probes.stream().anyMatch(p -> p.load() == proposed)
        ? OptionalDouble.empty()
        : OptionalDouble.of(proposed);
  }

  /** The bracket so far. */
  public Verdict verdict(List<Probe> probes) {
    Double lowestBroken = null;
    for (Probe p : probes) {
      if (!p.met() && (lowestBroken == null || p.load() < lowestBroken)) {
        lowestBroken = p.load();
      }
    }
    Double capacity = null;
    for (Probe p : probes) {
      if (p.met()
          && (lowestBroken == null || p.load() < lowestBroken)
          && (capacity == null || p.load() > capacity)) {
        capacity = p.load();
      }
    }
    String status;
    if (capacity == null && lowestBroken != null && lowestBroken <= min) {
      status = "never met";
    } else if (lowestBroken == null && capacity != null && capacity >= max) {
      status = "always met";
    } else if (capacity != null
        && lowestBroken != null
        && (lowestBroken - capacity <= precision * capacity || adjacent(capacity, lowestBroken))) {
      status = "bracketed";
    } else {
      status = "not bracketed";
    }
    return new Verdict(capacity, lowestBroken, status, List.copyOf(probes));
  }

  private double midpoint(double met, double broken) {
    return round((met + broken) / 2);
  }

  /**
   * Whether no load lies between the two (whole loads next to each other, rates 3 digits apart): as
   * close as it gets.
   */
  private boolean adjacent(double met, double broken) {
    double mid = midpoint(met, broken);
    return mid <= met || mid >= broken;
  }

  /**
   * A whole load, or a rate to 3 significant digits (a level's name reads {@code r12.5}, not {@code
   * r12.499999}).
   */
  private double round(double load) {
    double r =
        whole ? Math.round(load) : new BigDecimal(load).round(new MathContext(3)).doubleValue();
    return Math.max(min, r);
  }
}
