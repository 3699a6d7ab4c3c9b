package io.github.llmbench.it;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;

import io.gatling.javaapi.core.Simulation;
import io.github.llmbench.LlmBench;

/** Test simulation: exactly {@code -Dit.requests} requests, all sent at once. */
public class FixedRequestsSimulation extends Simulation {
  private final LlmBench bench = LlmBench.create(io.github.llmbench.settings.BenchSettings.fromSystem());

  {
    setUp(bench.streamingScenario(LlmBench.level(bench.settings().conc())).injectOpen(atOnceUsers(Integer.getInteger("it.requests"))))
        .protocols(bench.http())
        .maxDuration(bench.maxDuration());
  }

  @Override
  public void after() {
    bench.finish();
  }
}
