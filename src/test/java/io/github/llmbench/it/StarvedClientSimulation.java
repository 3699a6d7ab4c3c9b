package io.github.llmbench.it;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;
import io.github.llmbench.LlmBench;
import io.github.llmbench.settings.BenchSettings;
import java.util.concurrent.TimeUnit;

/**
 * Test simulation: a closed level of {@code -Dconc} users for {@code -Dduration} s whose every
 * request is preceded by {@code -Dit.spin.ms} of busy work on the user's event loop, as a blocking
 * call in a simulation would: the client starves its own reads.
 */
public class StarvedClientSimulation extends Simulation {
  private final LlmBench bench = LlmBench.create(BenchSettings.fromSystem());

  {
    long spinNanos = TimeUnit.MILLISECONDS.toNanos(Integer.getInteger("it.spin.ms"));
    int conc = bench.settings().load().conc();
    setUp(
            scenario(LlmBench.level(conc))
                .feed(bench.feeder())
                .exec(
                    session -> {
                      long end = System.nanoTime() + spinNanos;
                      while (System.nanoTime() < end) {
                        Thread.onSpinWait();
                      }
                      return session;
                    })
                .exec(bench.stream())
                .injectClosed(
                    constantConcurrentUsers(conc)
                        .during(bench.settings().load().durationSeconds())))
        .protocols(bench.http())
        .maxDuration(bench.maxDuration());
  }

  @Override
  public void after() {
    bench.finish();
  }
}
