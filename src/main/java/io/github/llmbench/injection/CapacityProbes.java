package io.github.llmbench.injection;

import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Session;
import io.github.llmbench.core.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

/**
 * The probes of a capacity search as Gatling populations. Gatling fixes its populations before the
 * run, while a search picks each probe's load from the probes before it: so the chain holds enough
 * probe slots, each injecting at once as many users as the largest probe needs, of which the
 * probe's own share sends and the others leave at once. As a slot starts, {@code next} decides the
 * load (0: the search is over, and the slot sends nothing); once it has drained, {@code onDrained}
 * gets it.
 *
 * <ul>
 *   <li>concurrency ({@link #closed}): the first {@code target} users keep sending requests for the
 *       probe's duration (a closed model of that concurrency, its users started over the first
 *       second as Gatling starts a level's);
 *   <li>request rate ({@link #open}): user k sends one request at the k-th arrival time of the
 *       probe, drawn as an open-model level's ({@link Arrivals}, same seed: the same gaps as a
 *       plain {@code -Drate} run at that rate), optionally capped at {@code max.conc} in flight.
 * </ul>
 */
public final class CapacityProbes {
  /** The session attribute with the probe's {@link Level}, for its group and records. */
  private static final String LEVEL = "llm.searchLevel";

  private CapacityProbes() {}

  /** The level of the probe the session's user sends in. */
  public static Level levelOf(Session session) {
    return session.get(LEVEL);
  }

  /**
   * Probes of closed-model concurrency.
   *
   * @param name the slots' scenario name, numbered from 1 ({@code search probe 1})
   * @param slots how many probes at most
   * @param request one request, in the group named by the session's level ({@link #levelOf})
   * @param nextTarget the next probe's concurrency, or 0 when the search is over
   * @param onDrained called with a probe's level once all its requests have finished
   */
  public static PopulationBuilder closed(
      String name,
      int slots,
      int maxUsers,
      int durationSeconds,
      ChainBuilder request,
      IntSupplier nextTarget,
      Consumer<Level.Closed> onDrained,
      BooleanSupplier ready) {
    List<PopulationBuilder> ordered = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      AtomicReference<Optional<Level.Closed>> probe =
          new AtomicReference<>(Optional.empty()); // empty: the search is over
      AtomicLong endMs = new AtomicLong();
      Slot slot =
          new Slot(
              maxUsers,
              () -> {
                int target = nextTarget.getAsInt();
                probe.set(target > 0 ? Optional.of(Level.closed(target)) : Optional.empty());
                // the probe's duration counts from its first user: Gatling starts the next
                // population of a chain some time after the one before has ended
                endMs.set(System.currentTimeMillis() + durationSeconds * 1000L);
              },
              () -> probe.get().ifPresent(onDrained));
      ordered.add(
          scenario(name + " " + (i + 1))
              .exec(waitUntil(ready))
              .exec(session -> session.set(SLOT, slot.join()))
              .doIf(session -> session.getInt(SLOT) < probe.get().map(Level.Closed::conc).orElse(0))
              .then(
                  exec(session -> session.set(LEVEL, probe.get().orElseThrow()))
                      // started over the probe's first second, as Gatling's constantConcurrentUsers
                      // starts a level's
                      // users: all at once, same-length requests would prefill together and stay in
                      // step
                      .pause(
                          session ->
                              Duration.ofMillis(
                                  session.getInt(SLOT) * 1000L / probe.get().orElseThrow().conc()))
                      .asLongAs(session -> System.currentTimeMillis() < endMs.get())
                      .on(request))
              .exec(slot::leave)
              .injectOpen(atOnceUsers(maxUsers)));
    }
    return Populations.inOrder(ordered);
  }

  /**
   * Probes of open-model request rates.
   *
   * @param name the slots' scenario name, numbered from 1 ({@code search probe 1})
   * @param maxRequests the most requests one probe sends (users made per slot): the highest rate's
   *     arrivals in the duration, with room for the draw's spread
   * @param maxConc the cap on requests in flight ({@code -Dmax.conc}), or 0 for none
   * @param request one request, in the group named by the session's level ({@link #levelOf})
   * @param nextRate the next probe's rate (requests/s), or 0 when the search is over
   * @param onDrained called with a probe's level once all its requests have finished
   */
  public static PopulationBuilder open(
      String name,
      int slots,
      int maxRequests,
      int durationSeconds,
      double burstiness,
      int maxConc,
      long seed,
      ChainBuilder request,
      DoubleSupplier nextRate,
      Consumer<Level.Open> onDrained,
      BooleanSupplier ready) {
    ChainBuilder send = maxConc > 0 ? Populations.capped(request, maxConc) : request;
    List<PopulationBuilder> ordered = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      AtomicReference<double[]> sendTimes = new AtomicReference<>(new double[0]);
      AtomicReference<Optional<Level.Open>> probe =
          new AtomicReference<>(Optional.empty()); // empty: the search is over
      AtomicLong startNanos = new AtomicLong();
      Slot slot =
          new Slot(
              maxRequests,
              () -> {
                double rate = nextRate.getAsDouble();
                probe.set(rate > 0 ? Optional.of(Level.open(rate)) : Optional.empty());
                sendTimes.set(
                    rate > 0
                        ? sendTimes(rate, burstiness, durationSeconds, maxRequests, seed)
                        : new double[0]);
                startNanos.set(System.nanoTime()); // as in closed(): it starts with its first user
              },
              () -> probe.get().ifPresent(onDrained));
      ordered.add(
          scenario(name + " " + (i + 1))
              .exec(waitUntil(ready))
              .exec(session -> session.set(SLOT, slot.join()))
              .doIf(session -> session.getInt(SLOT) < sendTimes.get().length)
              .then(
                  exec(session ->
                          session // its record then says how late it was sent
                              .set(
                                  Populations.SEND_AT_MICROS,
                                  Math.round(sendTimes.get()[session.getInt(SLOT)] * 1e6))
                              .set(Populations.SEND_CLOCK_START_NANOS, startNanos.get())
                              .set(LEVEL, probe.get().orElseThrow()))
                      // the pause brings the user to about its time (its body built then, not all
                      // at the
                      // probe's start); the streaming action sends at the exact instant
                      .exec(
                          pause(
                              session ->
                                  Duration.ofNanos(
                                      Math.max(
                                          0,
                                          startNanos.get()
                                              + Math.round(
                                                  sendTimes.get()[session.getInt(SLOT)] * 1e9)
                                              - System.nanoTime()))))
                      .exec(send))
              .exec(slot::leave)
              .injectOpen(atOnceUsers(maxRequests)));
    }
    return Populations.inOrder(ordered);
  }

  /**
   * A rate probe's send times (s from its start): an open-model level's arrivals, at most {@code
   * max}.
   */
  static double[] sendTimes(
      double rate, double burstiness, int durationSeconds, int max, long seed) {
    List<Double> gaps = Arrivals.gaps(rate, burstiness, 0, durationSeconds, seed);
    double[] times = new double[Math.min(max, gaps.size())];
    double t = 0;
    for (int k = 0; k < times.length; k++) {
      t += gaps.get(k);
      times[k] = t;
    }
    return times;
  }

  /**
   * Users a rate probe needs at most: the arrivals of {@code maxRate} in the duration, plus six
   * standard deviations of their count (gamma gaps of shape b: variance about n / b) and a margin.
   */
  public static int maxRequests(double maxRate, int durationSeconds, double burstiness) {
    double n = maxRate * durationSeconds;
    return (int) Math.ceil(n + 6 * Math.sqrt(n / Math.min(1, burstiness)) + 10);
  }

  private static final String SLOT = "llm.slot";

  /** For a mode whose next probe is ready as soon as the one before has drained. */
  public static final BooleanSupplier ALWAYS_READY = () -> true;

  /** How often a slot's users look whether the mode is ready for its probe. */
  private static final Duration READY_POLL = Duration.ofMillis(50);

  /**
   * Holds a slot's users, off Gatling's threads, while the mode prepares the next probe ({@link
   * AdaptiveLevels#readyForNext}: an A/B run's servers restarting): the wait is a Gatling pause,
   * not a blocked event loop, so the client's own figures (its event-loop lag) stay true.
   */
  private static ChainBuilder waitUntil(BooleanSupplier ready) {
    return asLongAs(session -> !ready.getAsBoolean()).on(pause(READY_POLL));
  }

  /**
   * One probe slot's users, all injected at once: the first to join decides the probe's load (the
   * others wait for it), the last to leave reports the drained probe. One population a slot, not a
   * population before and after it as well: Gatling starts each population of a chain at its next
   * injection tick, a second apart.
   */
  private static final class Slot {
    private final int users;
    private final Runnable decide;
    private final Runnable report;
    private final AtomicInteger left = new AtomicInteger();
    private int joined;

    Slot(int users, Runnable decide, Runnable report) {
      this.users = users;
      this.decide = decide;
      this.report = report;
    }

    /** The joining user's place in the slot, from 0. */
    synchronized int join() {
      if (joined == 0) {
        decide.run();
      }
      return joined++;
    }

    Session leave(Session session) {
      if (left.incrementAndGet() == users) {
        report.run();
      }
      return session;
    }
  }

  /**
   * Probe slots enough for a search from min to max at a precision: the doublings, then the
   * halvings.
   */
  public static int slots(double min, double max, double precision) {
    int growth = (int) Math.ceil(Math.log((double) max / min) / Math.log(2)) + 1;
    int bisection = (int) Math.ceil(Math.log(1 / precision) / Math.log(2)) + 2;
    return growth + bisection;
  }
}
