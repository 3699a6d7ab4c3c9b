package io.github.llmbench.simulations;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;

import io.gatling.javaapi.core.Simulation;
import io.github.llmbench.LlmBench;

/**
 * A closed-model load: {@code -Dconc} streaming requests in flight for {@code -Dduration}
 * seconds, against {@code -Dbase.url} or, without it, the embedded vLLM simulator.
 *
 * <pre>mvn gatling:test -Dconc=128</pre>
 *
 * Each finished request is logged as Gatling records {@code c128 / TTFT}, {@code TPOT}, {@code
 * ITL} and {@code E2EL} and written to {@code llm/requests.jsonl}; the run ends with vLLM's {@code
 * Serving Benchmark Result} block and {@code llm/summary.json}.
 */
public class ServingBenchmarkSimulation extends Simulation {

  private final LlmBench bench = LlmBench.start();
  private final int conc = bench.settings().conc();

  {
    setUp(
            bench
                .streamingScenario(LlmBench.level(conc))
                .injectClosed(constantConcurrentUsers(conc).during(bench.settings().durationSeconds())))
        .protocols(bench.http())
        .maxDuration(bench.maxDuration());
  }

  @Override
  public void after() {
    bench.finish();
  }
}
