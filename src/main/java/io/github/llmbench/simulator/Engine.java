package io.github.llmbench.simulator;

import io.netty.channel.EventLoop;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The live vLLM-V1-like continuous-batching engine on one thread, in real time.
 *
 * <p>Each step: (1) take new and drop cancelled requests; (2) plan the step with the {@link
 * Scheduler} (vLLM V1's policy: decodes first, chunked prefill within {@code
 * max_num_batched_tokens}, at most {@code max_num_seqs} running, KV blocks, preemption, prefix
 * caching) and price it with the {@link CostModel}; (3) apply it as of its end (its duration times
 * the {@link SimNoise} factor, when noise or a slowdown is asked for): the tokens it samples are
 * handed to the connections' event loops (one task per event loop per step, scheduled there for the
 * step's scheduled end on the monotonic clock), never blocking on I/O; (4) sleep until the step's
 * end. {@link EngineModel} runs the same scheduler in virtual time.
 */
final class Engine implements Runnable {
  /**
   * The event loops wake up this much (at most a tenth of the step) before a step's end and spin to
   * it: a timed wake-up of an idle thread is often 0.1-0.5 ms late on the 2-core VM, later under
   * load.
   */
  private static final long LEAD_NANOS = 1_500_000;

  /** Within this much of the previous step's end, the next step starts at that end (no drift). */
  private static final long CONTIGUOUS_NANOS = 2_000_000;

  /**
   * Back-to-back steps stay anchored to the previous step's end unless this thread is this late.
   */
  private static final long CATCH_UP_NANOS = 50_000_000;

  private final Scheduler scheduler;
  private final SimMetrics metrics;
  private final LatenessHistogram lateness;

  /** Noise and slowdown of the step times ({@link SimNoise}); none leaves them as they are. */
  private final SimNoise.Steps noise;

  private final ConcurrentLinkedQueue<SimRequest> incoming = new ConcurrentLinkedQueue<>();

  /** Prefix-cache resets asked for, done on the engine thread (which alone owns the KV cache). */
  private final ConcurrentLinkedQueue<CompletableFuture<Boolean>> resets =
      new ConcurrentLinkedQueue<>();

  /** Requests submitted so far, and how many had been when each prefix-cache reset was done. */
  private final AtomicLong submitted = new AtomicLong();

  private final List<Long> resetsAfter = new CopyOnWriteArrayList<>();

  /**
   * Per event loop, its batches not yet written, in step order (engine thread adds, loop polls).
   */
  private final Map<EventLoop, ConcurrentLinkedQueue<Batch>> outboxes = new IdentityHashMap<>();

  private final SimPower power;
  private volatile Thread thread;
  private volatile boolean stopped;
  private volatile int runningCount;
  private volatile int waitingCount;
  private volatile long steps;

  Engine(CostModel cost, int maxNumSeqs, int maxNumBatchedTokens, LatenessHistogram lateness) {
    this(cost, maxNumSeqs, maxNumBatchedTokens, lateness, new SimMetrics());
  }

  Engine(
      CostModel cost,
      int maxNumSeqs,
      int maxNumBatchedTokens,
      LatenessHistogram lateness,
      SimMetrics metrics) {
    this(
        cost,
        maxNumSeqs,
        maxNumBatchedTokens,
        lateness,
        metrics,
        SimNoise.NONE,
        SimPower.standIn(),
        SimServing.MONOLITHIC);
  }

  Engine(
      CostModel cost,
      int maxNumSeqs,
      int maxNumBatchedTokens,
      LatenessHistogram lateness,
      SimMetrics metrics,
      SimNoise noise,
      SimPower power,
      SimServing serving) {
    this.metrics = metrics;
    this.power = power;
    this.scheduler =
        new Scheduler(
            cost, maxNumSeqs, maxNumBatchedTokens, metrics, serving, noise.seed() ^ 0x5EC);
    this.lateness = lateness;
    this.noise = noise.steps();
  }

  SimMetrics metrics() {
    return metrics;
  }

  /** The GPUs' simulated power draw and energy. */
  SimPower power() {
    return power;
  }

  void start(String name) {
    Thread t = new Thread(this, name);
    t.setDaemon(true);
    t.setPriority(Thread.MAX_PRIORITY);
    thread = t;
    t.start();
  }

  void stop() {
    stopped = true;
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Thread-safe: queue a request; it joins the batch at the next step. */
  void submit(SimRequest r) {
    submitted.incrementAndGet();
    incoming.add(r);
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /**
   * Thread-safe: empties the prefix cache at the engine's next turn (after the requests that ended
   * have freed their blocks); completes with whether it was done (not while a request holds blocks,
   * as vLLM's).
   */
  CompletableFuture<Boolean> resetPrefixCache() {
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    resets.add(done);
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    } else {
      done.complete(false);
    }
    return done;
  }

  /** For each prefix-cache reset done, how many requests had been submitted before it. */
  List<Long> prefixCacheResets() {
    return List.copyOf(resetsAfter);
  }

  int runningCount() {
    return runningCount;
  }

  int waitingCount() {
    return waitingCount;
  }

  long steps() {
    return steps;
  }

  @Override
  public void run() {
    long prevEnd = System.nanoTime();
    boolean busy = false; // the previous iteration ran a step: this one starts at its end
    while (!stopped) {
      takeIncoming();
      if (scheduler.idle()) {
        publishCounts();
        LockSupport.park(this);
        busy = false;
        continue;
      }
      boolean any = scheduler.schedule(System.nanoTime());
      publishCounts();
      if (!any) {
        // the waiting requests are still on their request path (or blocked): sleep until the first
        // is ready; a new arrival unparks this thread
        long wait = scheduler.nextReadyNanos() - System.nanoTime();
        LockSupport.parkNanos(this, Math.max(50_000, Math.min(wait, 10_000_000)));
        busy = false;
        continue;
      }
      long now = System.nanoTime();
      // Back-to-back steps do not drift when this thread wakes up late: the next step starts at the
      // previous one's end (a late write is then recorded as lateness), unless it is far behind.
      long start =
          busy && now - prevEnd < CATCH_UP_NANOS
              ? prevEnd
              : now - prevEnd < CONTIGUOUS_NANOS ? Math.max(prevEnd, now - CONTIGUOUS_NANOS) : now;
      busy = true;
      // the cost model's step time, times the dialled-in noise and slowdown (none: as it is)
      long duration = noise.apply(scheduler.durationNanos(), start);
      long end = start + duration;
      power.step(start, end, scheduler.busySeconds(), scheduler.intensity());
      // Tokens are sampled now and written at `end` by the event loops. This thread schedules the
      // next step a little before `end` (as vLLM's async scheduling does while the GPU runs a
      // step),
      // so that it does not wake up in the middle of the event loops' writes.
      emit(end, Math.min(LEAD_NANOS, duration / 10));
      parkUntil(end - Math.min(LEAD_NANOS + 500_000, duration / 4));
      prevEnd = end;
      steps++;
    }
  }

  private void takeIncoming() {
    SimRequest r;
    while ((r = incoming.poll()) != null) {
      scheduler.add(r);
    }
    scheduler.dropCancelled();
    CompletableFuture<Boolean> reset;
    while ((reset = resets.poll()) != null) {
      boolean done = scheduler.kv().resetPrefixCache();
      if (done) {
        resetsAfter.add(submitted.get() - incoming.size());
      }
      reset.complete(done);
    }
  }

  private void publishCounts() {
    runningCount = scheduler.runningCount();
    waitingCount = scheduler.waitingCount();
  }

  private static void parkUntil(long deadline) {
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }

  /**
   * Samples this step's tokens and hands them to the event loops, one task per loop, timed for the
   * step's end: each task is scheduled on its loop to start {@link #LEAD_NANOS} early and spins to
   * the exact end, so no thread has to wake up at that instant and no token leaves before it.
   */
  private void emit(long scheduledEnd, long lead) {
    Map<EventLoop, Batch> batches = new IdentityHashMap<>();
    int n = scheduler.scheduled().size();
    // vLLM samples a token at the end of the step that completes the prefill, then one per step.
    scheduler.complete(
        scheduledEnd,
        (r, k, end) -> {
          EventLoop loop = r.writer.eventLoop();
          Batch b = batches.get(loop);
          if (b == null) {
            b =
                new Batch(
                    loop,
                    outboxes.computeIfAbsent(loop, l -> new ConcurrentLinkedQueue<>()),
                    scheduledEnd,
                    lateness,
                    n);
            batches.put(loop, b);
          }
          b.add(r, k);
        });
    for (Batch b : batches.values()) {
      b.dispatch(lead);
    }
  }

  /**
   * Tokens of one step for the connections of one event loop. Its task, when it runs on the loop,
   * writes every batch of that loop due by its step's end, oldest first: Netty may run tasks out of
   * submission order (an immediate task before an expired scheduled one), tokens must not.
   */
  private static final class Batch implements Runnable {
    private final EventLoop loop;
    private final ConcurrentLinkedQueue<Batch> outbox;
    private final long scheduledEnd;
    private final LatenessHistogram lateness;
    private final SimRequest[] reqs;
    private final int[] tokenIndex;
    private int size;
    private long lead;

    Batch(
        EventLoop loop,
        ConcurrentLinkedQueue<Batch> outbox,
        long scheduledEnd,
        LatenessHistogram lateness,
        int capacity) {
      this.loop = loop;
      this.outbox = outbox;
      this.scheduledEnd = scheduledEnd;
      this.lateness = lateness;
      this.reqs = new SimRequest[capacity];
      this.tokenIndex = new int[capacity];
    }

    void add(SimRequest r, int k) {
      reqs[size] = r;
      tokenIndex[size++] = k;
    }

    /** Queues this batch and has its loop run it {@code lead} ns before the step's end. */
    void dispatch(long lead) {
      this.lead = lead;
      outbox.add(this);
      long early = scheduledEnd - lead - System.nanoTime();
      if (early > 0) {
        loop.schedule(this, early, TimeUnit.NANOSECONDS);
      } else {
        loop.execute(this);
      }
    }

    @Override
    public void run() {
      long left = scheduledEnd - System.nanoTime();
      if (left > 2 * lead) {
        loop.schedule(this, left - lead, TimeUnit.NANOSECONDS); // too early (should not happen)
        return;
      }
      Batch b;
      while ((b = outbox.peek()) != null && b.scheduledEnd - scheduledEnd <= 0) {
        outbox.poll();
        b.write();
      }
    }

    private void write() {
      while (scheduledEnd - System.nanoTime() > 0) {
        Thread.onSpinWait();
      }
      // Start at a random place so that the same streams are not always the last ones written.
      int n = size;
      int i = n > 1 ? ThreadLocalRandom.current().nextInt(n) : 0;
      for (int j = 0; j < n; j++, i = i + 1 == n ? 0 : i + 1) {
        SimRequest r = reqs[i];
        if (r.cancelled) {
          continue;
        }
        if (r.writer.emit(tokenIndex[i])) {
          r.writer.recordSent(lateness, scheduledEnd);
        }
      }
    }
  }
}
