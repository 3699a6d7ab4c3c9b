package io.github.llmbench.simulations;

import io.gatling.javaapi.core.Simulation;
import io.github.llmbench.LlmBench;

/**
 * The load the {@code -D} settings describe, against {@code -Dbase.url} or, without it, the
 * embedded vLLM simulator:
 *
 * <pre>
 * mvn gatling:test -Dconc=128                                  # one closed-model level
 * mvn gatling:test -Dladder=8,16,32 -Dprompts=300              # a ladder, 300 requests a level
 * mvn gatling:test -Drate=4 -Dduration=120                     # open model, Poisson arrivals
 * mvn gatling:test -Dconc=16 -Dgate.tpot.p99=300               # fails the build over 300 ms
 * </pre>
 *
 * Each finished request is one Gatling record, {@code c128 / request} (timed for its E2EL), and a
 * line of {@code llm/requests.jsonl}; each level ends with vLLM's {@code Serving Benchmark Result}
 * block; the run with {@code llm/summary.json}.
 */
public class ServingBenchmarkSimulation extends Simulation {

  private final LlmBench bench = LlmBench.start();

  {
    setUp(bench.load())
        .protocols(bench.http())
        .assertions(bench.assertions()) // the -Dgate.* latency and error limits, if any
        .maxDuration(bench.maxDuration());
  }

  @Override
  public void after() {
    bench.finish();
  }
}
