package io.github.llmbench.simulations;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.csv;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;
import io.github.llmbench.LlmBench;

/**
 * Your own scenario with your own feeder, and the kit's stream capture, records, result blocks and
 * gates: each CSV line ({@code prompt,max_tokens}) is one streamed request; the records' level is
 * the scenario's name ("feeder"), or the enclosing group.
 *
 * <pre>
 * mvn gatling:test -Dgatling.simulationClass=io.github.llmbench.simulations.CsvFeederSimulation
 * </pre>
 */
public class CsvFeederSimulation extends Simulation {

  private final LlmBench bench = LlmBench.start();

  {
    setUp(
            scenario("feeder")
                .feed(csv("my-prompts.csv").circular())
                .exec(bench.stream())
                .injectClosed(constantConcurrentUsers(2).during(6)))
        .protocols(bench.http());
  }

  @Override
  public void after() {
    bench.finish();
  }
}
