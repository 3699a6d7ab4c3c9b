package io.github.llmbench.it;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;

import io.gatling.javaapi.core.Simulation;
import io.github.llmbench.LlmBench;
import io.github.llmbench.settings.BenchSettings;

/** Test simulation: exactly {@code -Dit.requests} requests, all sent at once. */
public class FixedRequestsSimulation extends Simulation {
  private final LlmBench bench = LlmBench.create(BenchSettings.fromSystem());

  {
    setUp(
            bench
                .closedLevel(bench.settings().load().conc())
                .injectOpen(atOnceUsers(Integer.getInteger("it.requests"))))
        .protocols(bench.http())
        .maxDuration(bench.maxDuration());
  }

  @Override
  public void after() {
    bench.finish();
  }
}
