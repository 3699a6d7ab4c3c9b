package io.github.llmbench.simulations;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;

import io.gatling.javaapi.core.Simulation;
import io.github.llmbench.LlmBench;

/**
 * A ladder written with Gatling's own DSL, to copy and edit: each level is a closed-model
 * population, chained with {@code andThen} so it starts once the previous one has drained.
 *
 * <pre>
 * mvn gatling:test -Dgatling.simulationClass=io.github.llmbench.simulations.HandWrittenLadderSimulation
 * </pre>
 */
public class HandWrittenLadderSimulation extends Simulation {

  private final LlmBench bench = LlmBench.start();

  {
    setUp(
            bench
                .closedLevel(4)
                .injectClosed(constantConcurrentUsers(4).during(20))
                .andThen(bench.closedLevel(8).injectClosed(constantConcurrentUsers(8).during(20))))
        .protocols(bench.http())
        .maxDuration(bench.maxDuration().plusSeconds(40));
  }

  @Override
  public void after() {
    bench.finish();
  }
}
