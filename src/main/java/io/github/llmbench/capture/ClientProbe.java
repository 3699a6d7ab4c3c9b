package io.github.llmbench.capture;

import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.ClientSamplesFile;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Watches the load generator itself: every {@value ClientSample#PROBE_PERIOD_MS} ms a probe thread
 * hands each of Gatling's event loops a task and notes how long it waited to run, as a read that
 * became ready then would wait (a loop busy with reads, or whose thread waits for a core, runs it
 * late, and stamps every read it takes as late); once a second it adds the CPU time of the process
 * and of each loop's thread, GC pauses and the heap in use. Each stretch becomes a {@link
 * ClientSample}, appended to {@code llm/client.jsonl} at each level's end and at the run's.
 *
 * <p>It starts on the first request, from its event loop, so it watches the loops that serve the
 * requests and nothing before the load.
 */
public final class ClientProbe {

  private static final long PERIOD_NANOS =
      TimeUnit.MILLISECONDS.toNanos(ClientSample.PROBE_PERIOD_MS);
  private static final long SAMPLE_MS = 1000;

  private final Supplier<Path> directory;
  private final AtomicBoolean started = new AtomicBoolean();
  private final List<LoopTask> loops = new CopyOnWriteArrayList<>();
  private final List<ClientSample> samples = new ArrayList<>();
  private final List<ClientSample> unwritten = new ArrayList<>();
  private final List<Consumer<ClientSample>> listeners = new CopyOnWriteArrayList<>();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final List<GarbageCollectorMXBean> pausingCollectors = pausingCollectors();
  private volatile boolean closed;
  private long lastMs;
  private long lastProcessCpu;
  private long lastGcMillis;

  /**
   * @param directory the run's {@code llm/} folder, asked for when samples are first written
   */
  public ClientProbe(Supplier<Path> directory) {
    this.directory = directory;
  }

  /**
   * Hands {@code l} each sample as its stretch ends (the live exports show the latest), on the
   * probe's thread: it must return at once.
   */
  public void listen(Consumer<ClientSample> l) {
    listeners.add(l);
  }

  /** Starts watching every loop of {@code anyLoop}'s group, once; later calls do nothing. */
  public void watch(EventLoop anyLoop) {
    if (closed || !started.compareAndSet(false, true)) {
      return;
    }
    if (threads.isThreadCpuTimeSupported() && !threads.isThreadCpuTimeEnabled()) {
      threads.setThreadCpuTimeEnabled(true);
    }
    Iterable<EventExecutor> group = anyLoop.parent() == null ? List.of(anyLoop) : anyLoop.parent();
    synchronized (this) {
      lastMs = System.currentTimeMillis();
      lastProcessCpu = processCpuNanos();
      lastGcMillis = gcPauseMillis();
      for (EventExecutor e : group) {
        loops.add(new LoopTask(e));
      }
      Thread t = new Thread(this::probe, "llm-client-probe");
      t.setDaemon(true);
      t.start();
    }
  }

  /**
   * The probe's thread: every period it hands each loop a task and notes when it ran, as the loop
   * would run a read that became ready then (a sleeping loop is woken, a busy one finishes what it
   * is doing first); once a second it ends a stretch.
   */
  private void probe() {
    long next = System.nanoTime();
    long nextSample = next + TimeUnit.MILLISECONDS.toNanos(SAMPLE_MS);
    while (!closed) {
      next += PERIOD_NANOS;
      LockSupport.parkNanos(next - System.nanoTime());
      long now = System.nanoTime();
      if (now - next > PERIOD_NANOS) {
        next = now; // this thread itself ran late: no catching up in a burst
      }
      for (LoopTask t : loops) {
        t.post();
      }
      if (now >= nextSample) {
        nextSample += TimeUnit.MILLISECONDS.toNanos(SAMPLE_MS);
        sampleQuietly();
      }
    }
  }

  /** Whether it has started (a request was sent). */
  public boolean started() {
    return started.get();
  }

  /**
   * Ends the current stretch now (a level has drained: its figures end here) and appends what is
   * not written yet to {@code client.jsonl}.
   */
  public void sampleNow() {
    if (!started.get()) {
      return;
    }
    synchronized (this) {
      sample();
      write();
    }
  }

  /** The samples so far. */
  public synchronized List<ClientSample> samples() {
    return List.copyOf(samples);
  }

  /** Stops the probe, writes the last stretch; returns every sample. */
  public List<ClientSample> close() {
    closed = true;
    if (started.get()) {
      synchronized (this) {
        sample();
        write();
      }
    }
    return samples();
  }

  private void sampleQuietly() {
    try {
      synchronized (this) {
        sample();
      }
    } catch (RuntimeException e) {
      System.err.println("gatling-llm-bench: the client probe could not sample: " + e);
    }
  }

  private void sample() {
    long now = System.currentTimeMillis();
    if (now <= lastMs) {
      return;
    }
    long cpu = processCpuNanos();
    long gc = gcPauseMillis();
    long[] loopCpu = new long[loops.size()];
    TreeMap<Long, int[]> lag = new TreeMap<>();
    long lateMicros = 0;
    long lateBusyMicros = 0;
    for (int i = 0; i < loopCpu.length; i++) {
      LoopTask t = loops.get(i);
      loopCpu[i] = t.cpuSinceLast();
      synchronized (t) {
        for (int j = 0; j < t.n; j++) {
          lag.computeIfAbsent(ClientSample.lagBucket(t.lateness[j]), k -> new int[1])[0]++;
        }
        t.n = 0;
        lateMicros += t.lateMicros;
        lateBusyMicros += t.lateBusyMicros;
        t.lateMicros = 0;
        t.lateBusyMicros = 0;
      }
    }
    long[] values = new long[lag.size()];
    int[] counts = new int[lag.size()];
    int k = 0;
    for (var e : lag.entrySet()) {
      values[k] = e.getKey();
      counts[k++] = e.getValue()[0];
    }
    ClientSample s =
        new ClientSample(
            now,
            now - lastMs,
            new ClientSample.Cpu(
                Runtime.getRuntime().availableProcessors(),
                cpu < 0 || lastProcessCpu < 0 ? -1 : cpu - lastProcessCpu,
                loopCpu),
            new ClientSample.Memory(
                Math.max(0, gc - lastGcMillis), memory.getHeapMemoryUsage().getUsed()),
            new ClientSample.Lag(values, counts, lateMicros, lateBusyMicros));
    samples.add(s);
    unwritten.add(s);
    for (Consumer<ClientSample> l : listeners) {
      l.accept(s);
    }
    lastMs = now;
    lastProcessCpu = cpu;
    lastGcMillis = gc;
  }

  private void write() {
    if (!unwritten.isEmpty()) {
      ClientSamplesFile.append(directory.get(), unwritten);
      unwritten.clear();
    }
  }

  private static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun
        ? sun.getProcessCpuTime()
        : -1;
  }

  /** The collectors that stop the application; concurrent cycles are not pauses. */
  private static List<GarbageCollectorMXBean> pausingCollectors() {
    List<GarbageCollectorMXBean> out = new ArrayList<>();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      String n = gc.getName();
      if (!n.contains("Concurrent") && !n.contains("Cycles")) {
        out.add(gc);
      }
    }
    return out;
  }

  private long gcPauseMillis() {
    long ms = 0;
    for (GarbageCollectorMXBean gc : pausingCollectors) {
      ms += Math.max(0, gc.getCollectionTime());
    }
    return ms;
  }

  /**
   * The probe's tasks on one loop. A task is handed over every period even while earlier ones wait
   * (a stalled loop then holds several), so the lateness is sampled evenly over time, stalls as
   * much as quiet stretches.
   */
  private final class LoopTask {
    private final EventExecutor loop;
    private volatile long threadId = -1;
    private volatile long lastCpu = -1;
    private long[] lateness = new long[256];
    private int n;
    private long lateMicros;
    private long lateBusyMicros;

    LoopTask(EventExecutor loop) {
      this.loop = loop;
    }

    void post() {
      long id = threadId;
      long cpuAtPost = id < 0 ? -1 : threads.getThreadCpuTime(id);
      long postedAt = System.nanoTime();
      try {
        loop.execute(() -> ran(postedAt, cpuAtPost));
      } catch (RejectedExecutionException e) {
        closed = true; // Gatling has shut its loops down: the run is over
      }
    }

    private void ran(long postedAt, long cpuAtPost) {
      long now = System.nanoTime();
      long cpu = threads.getCurrentThreadCpuTime();
      if (threadId < 0) {
        lastCpu = cpu; // before the id: the probe reads it after
        threadId = Thread.currentThread().getId();
      }
      add((now - postedAt) / 1000, cpuAtPost < 0 ? -1 : (cpu - cpuAtPost) / 1000);
    }

    /**
     * @param busyMicros the loop's own CPU time while the task waited, -1 when unknown
     */
    private synchronized void add(long micros, long busyMicros) {
      if (n == lateness.length) {
        lateness = Arrays.copyOf(lateness, n * 2);
      }
      lateness[n++] = micros;
      if (micros >= ClientSample.LATE_MICROS && busyMicros >= 0) {
        lateMicros += micros;
        lateBusyMicros += Math.min(micros, busyMicros);
      }
    }

    long cpuSinceLast() {
      long id = threadId;
      long cpu = id < 0 ? -1 : threads.getThreadCpuTime(id);
      long before = lastCpu;
      if (cpu < 0 || before < 0) {
        return -1;
      }
      lastCpu = cpu;
      return cpu - before;
    }
  }
}
