package io.github.llmbench.endpoints;

import io.github.llmbench.core.Metric;
import java.util.List;

/** The figures an endpoint's requests have, as data for the analysis, gates and report. */
public enum Figures {
  /** It generates tokens: TTFT, TPOT, ITL, E2EL and output tokens. */
  GENERATED(List.of(Metric.values())),
  /**
   * It generates nothing (vLLM's pooling task): E2EL, the input tokens and the request rate alone.
   */
  POOLED(List.of(Metric.E2EL));

  private final List<Metric> latencies;

  Figures(List<Metric> latencies) {
    this.latencies = latencies;
  }

  /** Whether its requests generate output tokens (and so have TTFT, TPOT and ITL). */
  public boolean generates() {
    return this == GENERATED;
  }

  /** The latency metrics that mean something for its requests, in the report's order. */
  public List<Metric> latencies() {
    return latencies;
  }
}
