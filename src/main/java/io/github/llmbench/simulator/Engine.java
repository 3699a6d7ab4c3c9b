package io.github.llmbench.simulator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;

/**
 * A vLLM-V1-like continuous-batching engine on one thread.
 *
 * <p>Each step: (1) take new and drop cancelled requests; (2) schedule like vLLM V1's scheduler:
 * running requests first, in order (a decoding request takes 1 token, a partially prefilled one
 * the rest of its prompt, each capped by what is left of the {@code max_num_batched_tokens}
 * budget), then admit waiting requests while fewer than {@code max_num_seqs} run, each getting a
 * prefill chunk within the remaining budget (chunked prefill); (3) price the step with the
 * {@link CostModel}; (4) sleep until the step's scheduled end on the monotonic clock; (5) sample
 * one token for every request that is decoding or whose prefill this step finished, and hand the
 * tokens to the connections' event loops (one task per event loop per step), never blocking on I/O.
 *
 * <p>Not modelled yet (later issue): KV-cache block capacity (gpu_memory_utilization), preemption
 * when the cache is full, prefix caching. They belong in {@link #schedule()}, where marked.
 */
final class Engine implements Runnable {
  private static final long SPIN_NANOS = 100_000;
  /** Within this much of the previous step's end, the next step starts at that end (no drift). */
  private static final long CONTIGUOUS_NANOS = 2_000_000;

  private final CostModel.Step step;
  private final int maxNumSeqs;
  private final int maxNumBatchedTokens;
  private final LatenessHistogram lateness;

  private final ConcurrentLinkedQueue<SimRequest> incoming = new ConcurrentLinkedQueue<>();
  private final ArrayDeque<SimRequest> waiting = new ArrayDeque<>();
  private final ArrayList<SimRequest> running = new ArrayList<>();
  private final ArrayList<SimRequest> scheduled = new ArrayList<>();

  private volatile Thread thread;
  private volatile boolean stopped;
  private volatile int runningCount;
  private volatile int waitingCount;
  private volatile long steps;

  Engine(CostModel cost, int maxNumSeqs, int maxNumBatchedTokens, LatenessHistogram lateness) {
    this.step = cost.new Step();
    this.maxNumSeqs = maxNumSeqs;
    this.maxNumBatchedTokens = maxNumBatchedTokens;
    this.lateness = lateness;
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
    incoming.add(r);
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
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
    while (!stopped) {
      takeIncoming();
      if (running.isEmpty() && waiting.isEmpty()) {
        publishCounts();
        LockSupport.park(this);
        continue;
      }
      schedule();
      publishCounts();
      if (scheduled.isEmpty()) {
        LockSupport.parkNanos(this, 100_000);
        continue;
      }
      long now = System.nanoTime();
      long start = now - prevEnd < CONTIGUOUS_NANOS ? Math.max(prevEnd, now - CONTIGUOUS_NANOS) : now;
      long end = start + step.durationNanos();
      sleepUntil(end);
      emit(end);
      prevEnd = end;
      steps++;
    }
  }

  private void takeIncoming() {
    SimRequest r;
    while ((r = incoming.poll()) != null) {
      waiting.add(r);
    }
    if (!running.isEmpty()) {
      running.removeIf(x -> x.cancelled);
    }
    if (!waiting.isEmpty()) {
      waiting.removeIf(x -> x.cancelled);
    }
  }

  private void publishCounts() {
    runningCount = running.size();
    waitingCount = waiting.size();
  }

  private void schedule() {
    step.reset();
    scheduled.clear();
    int budget = maxNumBatchedTokens;
    // Running requests first: decodes (1 token) and unfinished chunked prefills, in order.
    for (int i = 0; i < running.size() && budget > 0; i++) {
      SimRequest r = running.get(i);
      int need = r.prefillDone() ? 1 : r.promptTokens - r.prefilled;
      int n = Math.min(need, budget);
      // LATER (KV cache): allocate KV blocks for n tokens here; if the cache is full, preempt the
      // last running request (recompute) as vLLM V1 does.
      add(r, n);
      budget -= n;
    }
    // Then admit waiting requests while there is room in the batch and budget left.
    while (budget > 0 && running.size() < maxNumSeqs && !waiting.isEmpty()) {
      SimRequest r = waiting.poll();
      // LATER (prefix caching): start r.prefilled at the number of cached prompt tokens.
      // LATER (KV cache): admit only if its blocks fit in the free KV cache.
      int n = Math.min(r.promptTokens, budget);
      running.add(r);
      add(r, n);
      budget -= n;
    }
  }

  private void add(SimRequest r, int n) {
    r.scheduledThisStep = n;
    step.add(r.contextLen(), n);
    scheduled.add(r);
  }

  private static void sleepUntil(long deadline) {
    long left;
    while ((left = deadline - System.nanoTime()) > SPIN_NANOS) {
      LockSupport.parkNanos(left - SPIN_NANOS);
    }
    while (deadline - System.nanoTime() > 0) {
      Thread.onSpinWait();
    }
  }

  /** Samples this step's tokens and hands them to the event loops, one task per loop. */
  private void emit(long scheduledEnd) {
    Map<Executor, Batch> batches = new IdentityHashMap<>();
    boolean anyFinished = false;
    for (int i = 0, n = scheduled.size(); i < n; i++) {
      SimRequest r = scheduled.get(i);
      if (!r.prefillDone()) {
        r.prefilled += r.scheduledThisStep;
        if (!r.prefillDone()) {
          continue; // chunk of a longer prompt: no token yet
        }
      }
      // vLLM samples a token at the end of the step that completes the prefill, then one per step.
      int k = r.generated++;
      if (r.generated >= r.maxTokens) {
        anyFinished = true;
      }
      Executor loop = r.writer.eventLoop();
      Batch b = batches.get(loop);
      if (b == null) {
        b = new Batch(scheduledEnd, lateness, n);
        batches.put(loop, b);
      }
      b.add(r, k);
    }
    for (Map.Entry<Executor, Batch> e : batches.entrySet()) {
      e.getKey().execute(e.getValue());
    }
    if (anyFinished) {
      // ignore_eos or not, the simulator never samples EOS: every request ends at max_tokens.
      running.removeIf(r -> r.generated >= r.maxTokens);
    }
  }

  /** Tokens of one step for the connections of one event loop. */
  private static final class Batch implements Runnable {
    private final long scheduledEnd;
    private final LatenessHistogram lateness;
    private final SimRequest[] reqs;
    private final int[] tokenIndex;
    private int size;

    Batch(long scheduledEnd, LatenessHistogram lateness, int capacity) {
      this.scheduledEnd = scheduledEnd;
      this.lateness = lateness;
      this.reqs = new SimRequest[capacity];
      this.tokenIndex = new int[capacity];
    }

    void add(SimRequest r, int k) {
      reqs[size] = r;
      tokenIndex[size++] = k;
    }

    @Override
    public void run() {
      for (int i = 0; i < size; i++) {
        SimRequest r = reqs[i];
        if (r.cancelled) {
          continue;
        }
        if (r.writer.emit(tokenIndex[i])) {
          lateness.record(System.nanoTime() - scheduledEnd);
        }
      }
    }
  }
}
