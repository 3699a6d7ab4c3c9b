package io.github.llmbench.it;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings both capacity-search ITs search with: the tiny model's steps stretched 16 times (a
 * 64-token answer takes about 1 s) on an engine with a fixed number of slots, so that a probe's
 * verdict is decided by whether requests wait for a slot, which holds on a busy machine, not by a
 * few ms of TTFT.
 */
final class SlottedSearch {
  private SlottedSearch() {}

  /**
   * The settings of a search on an engine of {@code slots} slots, starting at 16 with a precision
   * of {@code precision}; {@code search} adds the mode, its objective, its top, budget and seed.
   */
  static Map<String, String> settings(int slots, double precision, Map<String, String> search) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("sim.model", "sim-tiny");
    s.put("sim.gpu", "rtx4090");
    s.put("sim.slowdown", "16");
    s.put("sim.max_num_seqs", String.valueOf(slots));
    s.put("input.len", "256");
    s.put("output.len", "64");
    s.put("metrics.interval", "0");
    s.put("search.min", "16");
    s.put("search.precision", String.valueOf(precision));
    s.putAll(search);
    return s;
  }
}
