package io.github.llmbench.injection;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

/**
 * The probes of a capacity search as Gatling populations. Gatling fixes its populations before
 * the run, while a search picks each probe's concurrency from the probes before it: so the chain
 * holds enough probe slots, and each slot injects {@code maxUsers} users at once, of which the
 * first {@code target} keep sending requests for the probe's duration (a closed model of that
 * concurrency, its users started over the first second as Gatling starts a level's) and the others
 * leave at once. Before each slot, {@code nextTarget} decides the
 * target (0: the search is over, and the slot sends nothing); after it, {@code onDrained} gets it.
 */
public final class CapacityProbes {
  /** The session attribute with the probe's level, {@code c<target>}, for its group and records. */
  public static final String LEVEL = "llmSearchLevel"; // no dot: Gatling's EL reads a dot as a nested attribute

  private CapacityProbes() {}

  /**
   * @param slots how many probes at most
   * @param request one request, in the group named by the session's {@value #LEVEL}
   * @param nextTarget the next probe's concurrency, or 0 when the search is over
   * @param onDrained called with a probe's concurrency once all its requests have finished
   */
  public static PopulationBuilder chain(
      int slots, int maxUsers, int durationSeconds, ChainBuilder request, IntSupplier nextTarget, IntConsumer onDrained) {
    List<PopulationBuilder> ordered = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      AtomicInteger target = new AtomicInteger();
      AtomicInteger joined = new AtomicInteger();
      AtomicLong endMs = new AtomicLong();
      ordered.add(scenario("search step " + (i + 1)).exec(session -> {
        target.set(nextTarget.getAsInt());
        endMs.set(0);
        return session;
      }).injectOpen(atOnceUsers(1)));
      ordered.add(scenario("search probe " + (i + 1))
          .exec(session -> {
            // the probe's duration counts from its first user: Gatling starts the next population
            // of a chain some time after the one before has ended
            endMs.compareAndSet(0, System.currentTimeMillis() + durationSeconds * 1000L);
            return session.set("llm.slot", joined.getAndIncrement()).set(LEVEL, LoadPlan.closedLevel(target.get()));
          })
          .doIf(session -> session.getInt("llm.slot") < target.get())
          // started over the probe's first second, as Gatling's constantConcurrentUsers starts a level's
          // users: all at once, same-length requests would prefill together and stay in step
          .then(pause(session -> java.time.Duration.ofMillis(session.getInt("llm.slot") * 1000L / Math.max(1, target.get())))
              .asLongAs(session -> System.currentTimeMillis() < endMs.get()).on(request))
          .injectOpen(atOnceUsers(maxUsers)));
      ordered.add(scenario("search drained " + (i + 1)).exec(session -> {
        if (target.get() > 0) {
          onDrained.accept(target.get());
        }
        return session;
      }).injectOpen(atOnceUsers(1)));
    }
    PopulationBuilder chain = ordered.get(ordered.size() - 1);
    for (int i = ordered.size() - 2; i >= 0; i--) {
      chain = ordered.get(i).andThen(chain);
    }
    return chain;
  }

  /** Probe slots enough for a search from min to max at a precision: the doublings, then the halvings. */
  public static int slots(int min, int max, double precision) {
    int growth = (int) Math.ceil(Math.log((double) max / min) / Math.log(2)) + 1;
    int bisection = (int) Math.ceil(Math.log(1 / precision) / Math.log(2)) + 2;
    return growth + bisection;
  }
}
