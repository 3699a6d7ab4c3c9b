package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.ClientSamplesFile;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe on real Netty loops, as Gatling's (epoll where there is one). Each test checks what the
 * probe counted against what the test made happen on the loops (a task held there, the loops it was
 * given), never against how long things took or a thread's share of a core: on a busy 2-core
 * machine a quiet loop's thread waits for a core and a spinning one gets a fraction of it, so such
 * bounds fail there. What the figures say of the client (healthy, bottleneck, delayed) is {@code
 * ClientHealthTest}'s, on written samples.
 */
class ClientProbeTest {

  /**
   * How long a test waits for an event before it fails rather than hangs; an event comes much
   * sooner.
   */
  private static final long GIVE_UP_MS = 30_000;

  @TempDir Path dir;
  private MultiThreadIoEventLoopGroup group;
  private ClientProbe probe;

  @BeforeEach
  void startTwoLoopsAndAProbe() {
    IoHandlerFactory io =
        Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    group = new MultiThreadIoEventLoopGroup(2, io);
    probe = new ClientProbe(() -> dir);
  }

  @AfterEach
  void stop() {
    probe.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** A loop of the group, as the probe's tasks reach it (its queue can be counted). */
  private SingleThreadEventLoop loop() {
    return (SingleThreadEventLoop) group.next();
  }

  /**
   * Ends stretches until one passes {@code test}; fails after {@link #GIVE_UP_MS} without one. The
   * probe's tasks reach a loop within a period or two of its start.
   */
  private ClientSample awaitSample(Predicate<ClientSample> test, String what) throws Exception {
    long giveUp = System.currentTimeMillis() + GIVE_UP_MS;
    while (System.currentTimeMillis() < giveUp) {
      Thread.sleep(ClientSample.PROBE_PERIOD_MS);
      probe.sampleNow();
      List<ClientSample> samples = probe.samples();
      if (!samples.isEmpty() && test.test(samples.get(samples.size() - 1))) {
        return samples.get(samples.size() - 1);
      }
    }
    return fail("no sample " + what + ": " + probe.samples());
  }

  /** Until each loop has run a probe task: from then on its thread's CPU time is read. */
  private ClientSample awaitEveryLoopProbed() throws Exception {
    return awaitSample(
        s -> s.loopCpuNanos().length > 0 && Arrays.stream(s.loopCpuNanos()).allMatch(n -> n >= 0),
        "with every loop probed");
  }

  private static Set<Thread> probeThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("llm-client-probe"))
        .collect(Collectors.toSet());
  }

  @Test
  void itWatchesEveryLoopOfTheGroupOnce() throws Exception {
    probe.watch(loop());
    probe.watch(loop()); // the other loop of the same group: already watched
    ClientSample s = awaitEveryLoopProbed();
    assertEquals(2, s.loopCpuNanos().length, "both loops of the group, each once: " + s);
  }

  /**
   * A task the probe posted while its loop was busy waits until the loop is free: the test holds
   * the loop until the probe's tasks queue behind it (two of them, for at least a period), so the
   * first one waited at least as long as the hold, measured on the loop from when it saw that task
   * queued to its release. The probe must read it at least that late, and count it in the late time
   * (the lateness of tasks over {@value ClientSample#LATE_MICROS} µs late).
   */
  @Test
  void aTaskQueuedBehindAHeldLoopReadsAtLeastAsLateAsTheHold() throws Exception {
    SingleThreadEventLoop held = loop();
    probe.watch(held);
    awaitEveryLoopProbed();
    int before = probe.samples().size();
    long[] heldMicros = {-1};
    CompletableFuture<Void> drained = new CompletableFuture<>();
    held.execute(
        () -> {
          try {
            while (held.pendingTasks() < 1) {
              Thread.sleep(1);
            }
            long queued = System.nanoTime(); // a probe task waits from here at the latest
            long minimum = TimeUnit.MILLISECONDS.toNanos(ClientSample.PROBE_PERIOD_MS);
            while (held.pendingTasks() < 2 || System.nanoTime() - queued < minimum) {
              Thread.sleep(1);
            }
            heldMicros[0] = (System.nanoTime() - queued) / 1000;
            // after the probe's tasks queued now: once it runs, they have run
            held.execute(() -> drained.complete(null));
          } catch (InterruptedException e) {
            drained.completeExceptionally(e);
          }
        });
    drained.get(GIVE_UP_MS, TimeUnit.MILLISECONDS);
    probe.sampleNow();
    List<ClientSample> stretch = probe.samples().subList(before, probe.samples().size());
    long latest =
        stretch.stream()
            .flatMapToLong(s -> Arrays.stream(s.lagMicros()))
            .max()
            .orElseThrow(() -> new AssertionError("no probe task ran: " + stretch));
    assertTrue(
        latest >= ClientSample.lagBucket(heldMicros[0]),
        "the latest task read " + latest + " µs late, the loop was held " + heldMicros[0] + " µs");
    long lateMicros = stretch.stream().mapToLong(ClientSample::lateMicros).sum();
    assertTrue(
        lateMicros >= heldMicros[0],
        "late time counted " + lateMicros + " µs, the loop was held " + heldMicros[0] + " µs");
  }

  @Test
  void whatItSampledIsWrittenAsItGoesAndReadsBackTheSame() throws Exception {
    probe.watch(loop());
    awaitEveryLoopProbed();
    assertEquals(probe.samples(), ClientSamplesFile.read(dir), "each stretch ended so far");
    List<ClientSample> samples = probe.close();
    assertEquals(samples, ClientSamplesFile.read(dir), "and the last one");
  }

  @Test
  void afterCloseItsThreadEndsAndNothingMoreIsSampled() throws Exception {
    Set<Thread> others = probeThreads();
    probe.watch(loop());
    awaitEveryLoopProbed();
    Set<Thread> ours = new HashSet<>(probeThreads());
    ours.removeAll(others);
    assertEquals(1, ours.size(), "one probe thread for the group: " + ours);
    List<ClientSample> samples = probe.close();
    Thread thread = ours.iterator().next();
    thread.join(GIVE_UP_MS);
    assertFalse(thread.isAlive(), "the probe's thread ended");
    assertEquals(samples, probe.samples());
  }
}
