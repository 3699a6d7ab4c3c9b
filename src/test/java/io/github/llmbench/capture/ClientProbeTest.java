package io.github.llmbench.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.ClientHealth;
import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.ClientSamplesFile;
import io.netty.channel.EventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe on real Netty loops, as Gatling's (epoll where there is one): quiet loops read as
 * healthy; a loop kept busy by a task that hogs it (as a blocking call in a simulation would) reads
 * as late, and the analysis names it a bottleneck.
 */
class ClientProbeTest {

  @Test
  void aHoggedLoopReadsLateAndQuietOnesDoNot(@TempDir Path dir) throws Exception {
    IoHandlerFactory io =
        Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(2, io);
    try {
      ClientProbe probe = new ClientProbe(() -> dir);
      EventLoop first = group.next();
      probe.watch(first);
      probe.watch(group.next()); // once only
      long quietStart = System.currentTimeMillis();
      Thread.sleep(1500);
      probe.sampleNow();
      long quietEnd = System.currentTimeMillis();

      // 25 ms of work every 30 ms on one loop, for 1.5 s
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
      Runnable hog =
          new Runnable() {
            @Override
            public void run() {
              long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(25);
              while (System.nanoTime() < end) {
                Thread.onSpinWait();
              }
              if (System.nanoTime() < until) {
                first.schedule(this, 5, TimeUnit.MILLISECONDS);
              }
            }
          };
      long hoggedStart = System.currentTimeMillis();
      first.execute(hog);
      Thread.sleep(1600);
      List<ClientSample> samples = probe.close();
      long hoggedEnd = System.currentTimeMillis();

      ClientHealth quiet = ClientHealth.of(samples, quietStart, quietEnd, 0, 0);
      ClientHealth hogged = ClientHealth.of(samples, hoggedStart, hoggedEnd, 0, 0);
      assertEquals(2, quiet.level().loops(), "both loops of the group");
      // a probe each 100 ms on each loop: about 10 a second each
      assertTrue(quiet.level().probes() >= 15, quiet.toString());
      assertTrue(quiet.level().lagP50Ms() < 2, quiet.toString());
      assertTrue(quiet.level().busiestLoopPct() < 50, quiet.toString());
      assertTrue(hogged.level().lagMaxMs() > 15, hogged.toString());
      assertTrue(hogged.level().lagP99Ms() > 10, hogged.toString());
      assertTrue(hogged.level().busiestLoopPct() > 50, hogged.toString());
      assertEquals(ClientHealth.Verdict.BOTTLENECK, hogged.verdict(), hogged.toString());

      // written as it went, read back the same
      assertEquals(samples, ClientSamplesFile.read(dir));
      // after close, nothing more runs on the loops
      Thread.sleep(50);
      assertEquals(samples, probe.samples());
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
