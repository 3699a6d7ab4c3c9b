package io.github.llmbench.capture;

import io.github.llmbench.records.ClientSample;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.EventExecutor;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What the client probe costs: the CPU time of idle event loops' threads (as many as Gatling makes,
 * epoll where there is one) without the probe, then of the same threads and the probe's own with
 * it, alternating, each for {@code --seconds} (user and system time, so the kernel's wake-ups are
 * in it). Idle loops are its dearest case: each of its tasks wakes a sleeping loop (a busy one runs
 * it between reads).
 *
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.llmbench.capture.ClientProbeBenchmark -Dexec.args="--seconds 10 --rounds 5"
 * </pre>
 */
public final class ClientProbeBenchmark {
  private ClientProbeBenchmark() {}

  public static void main(String[] args) throws Exception {
    int seconds = 10;
    int rounds = 5;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
        case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException(args[i] + ": unknown (--seconds, --rounds)");
      }
    }
    int loops = 2 * Runtime.getRuntime().availableProcessors(); // Netty's default, as Gatling's
    IoHandlerFactory io =
        Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, io);
    List<Long> loopThreads = new ArrayList<>();
    for (EventExecutor e : group) {
      loopThreads.add(e.submit(() -> Thread.currentThread().getId()).get());
    }
    Path dir = Files.createTempDirectory("probe-bench");
    System.out.printf(
        Locale.ROOT,
        "client probe cost: %d idle %s event loops, a task each every %d ms, %d s per measure%n",
        loops,
        Epoll.isAvailable() ? "epoll" : "NIO",
        ClientSample.PROBE_PERIOD_MS,
        seconds);
    List<Double> costs = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      double without = cpuCoresOver(seconds, loopThreads);
      ClientProbe probe = new ClientProbe(() -> dir);
      probe.watch(group.next());
      Thread.sleep(100);
      List<Long> withProbe = new ArrayList<>(loopThreads);
      Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().equals("llm-client-probe"))
          .forEach(t -> withProbe.add(t.getId()));
      List<Long> probeOnly = withProbe.subList(loopThreads.size(), withProbe.size());
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      long probeCpu0 = probeOnly.stream().mapToLong(mx::getThreadCpuTime).sum();
      long probeT0 = System.nanoTime();
      double with = cpuCoresOver(seconds, withProbe);
      double probeThread =
          (probeOnly.stream().mapToLong(mx::getThreadCpuTime).sum() - probeCpu0)
              / (double) (System.nanoTime() - probeT0);
      probe.close();
      double cost = with - without;
      costs.add(cost);
      System.out.printf(
          Locale.ROOT,
          "round %d: the loops' threads %.3f%% of a core without the probe; with it, they and the"
              + " probe's thread %.3f%% (the probe's thread %.3f%%): the probe %.3f%%%n",
          r,
          100 * without,
          100 * with,
          100 * probeThread,
          100 * cost);
    }
    costs.sort(null);
    System.out.printf(
        Locale.ROOT,
        "the probe's cost, median of %d rounds: %.3f%% of a core (least %.3f%%, most %.3f%%)%n",
        rounds,
        100 * costs.get(costs.size() / 2),
        100 * costs.get(0),
        100 * costs.get(costs.size() - 1));
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
  }

  /** The CPU time of the threads over the next seconds, per second (user and system). */
  private static double cpuCoresOver(int seconds, List<Long> threadIds)
      throws InterruptedException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu0 = 0;
    for (long id : threadIds) {
      cpu0 += threads.getThreadCpuTime(id);
    }
    long t0 = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    long cpu1 = 0;
    for (long id : threadIds) {
      cpu1 += threads.getThreadCpuTime(id);
    }
    long t1 = System.nanoTime();
    return (cpu1 - cpu0) / (double) (t1 - t0);
  }
}
