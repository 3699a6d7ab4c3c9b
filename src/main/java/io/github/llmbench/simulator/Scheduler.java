package io.github.llmbench.simulator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * vLLM V1's scheduler, without sockets or clocks: used step by step by the live {@link Engine}
 * (real time) and by {@link EngineModel} (virtual time), so both share one behaviour.
 *
 * <p>A step: (1) running requests first, in order: each takes the tokens it has not computed yet (1
 * when decoding; the rest of its prompt, or of prompt + output after a preemption, when
 * prefilling), capped by what is left of {@code max_num_batched_tokens}; KV blocks are allocated
 * for them, and when the cache is full the newest running request is preempted (its blocks freed,
 * its computed tokens dropped, back at the head of the waiting queue, to be recomputed) until the
 * allocation fits; (2) unless that step preempted, waiting requests are admitted in order while
 * fewer than {@code max_num_seqs} run and budget is left: each first takes its cached prefix blocks
 * (automatic prefix caching), then a prefill chunk within the budget, if the free blocks hold it.
 * At the step's end every request whose tokens are all computed samples one token; a request ends
 * at {@code max_tokens} and frees its blocks.
 *
 * <p>A request reaches the waiting queue {@link CostModel#requestPathNanos()} after it arrived (the
 * API server's parsing and tokenization and the hand-off to the engine process): a client's next
 * request, sent when its previous one ends, misses the steps that start in the meantime.
 */
final class Scheduler {

  /** Receives each sampled token at the end of its step. */
  interface TokenSink {
    void token(SimRequest r, int k, long stepEndNanos);
  }

  private final CostModel.Step step;
  private final SimSpeculation speculation;
  private final double kvTransferBytesPerS; // 0: not disaggregated
  private final double kvBytesPerToken;
  private final SplittableRandom acceptances;
  private final KvCache kv;
  private final int maxNumSeqs;
  private final int maxNumBatchedTokens;
  private final long requestPathNanos;
  private final SimMetrics metrics;

  private final ArrayDeque<SimRequest> waiting = new ArrayDeque<>();
  private final ArrayList<SimRequest> running = new ArrayList<>();
  private final ArrayList<SimRequest> scheduled = new ArrayList<>();
  private final ArrayList<SimRequest> finishedThisStep = new ArrayList<>();
  private long preemptions;
  private long lastStepTokens;

  Scheduler(CostModel cost, int maxNumSeqs, int maxNumBatchedTokens, SimMetrics metrics) {
    this(cost, maxNumSeqs, maxNumBatchedTokens, metrics, SimServing.MONOLITHIC, 0);
  }

  /**
   * With speculative decoding and disaggregated serving as {@code serving} says, speculation's
   * acceptances drawn from {@code seed}.
   */
  Scheduler(
      CostModel cost,
      int maxNumSeqs,
      int maxNumBatchedTokens,
      SimMetrics metrics,
      SimServing serving,
      long seed) {
    this.speculation = serving.speculation();
    this.kvTransferBytesPerS = serving.kvTransferGbPerS() * 1e9;
    this.kvBytesPerToken = cost.kvBytesPerToken();
    this.acceptances = new SplittableRandom(seed);
    this.step = cost.new Step();
    this.kv = new KvCache(cost.kvBlocks(), cost.blockSize());
    this.maxNumSeqs = maxNumSeqs;
    this.maxNumBatchedTokens = maxNumBatchedTokens;
    this.requestPathNanos = cost.requestPathNanos();
    this.metrics = metrics;
  }

  /** Queues a request; it can be scheduled from its arrival plus the request path on. */
  void add(SimRequest r) {
    r.readyNanos = r.arrivalNanos + requestPathNanos;
    waiting.add(r);
  }

  /**
   * When the head of the waiting queue becomes schedulable ({@code Long.MAX_VALUE} when none
   * waits): the engine sleeps until then when nothing else runs.
   */
  long nextReadyNanos() {
    SimRequest r = waiting.peek();
    long next = r == null ? Long.MAX_VALUE : r.readyNanos;
    for (SimRequest x : running) {
      if (x.transferredUntilNanos != 0 && x.transferredUntilNanos - next < 0) {
        next = x.transferredUntilNanos;
      }
    }
    return next;
  }

  /** Drops cancelled requests (the client went away), freeing their blocks. */
  void dropCancelled() {
    if (!running.isEmpty()) {
      running.removeIf(
          x -> {
            if (x.cancelled) {
              kv.free(x);
              return true;
            }
            return false;
          });
    }
    if (!waiting.isEmpty()) {
      waiting.removeIf(x -> x.cancelled);
    }
  }

  boolean idle() {
    return running.isEmpty() && waiting.isEmpty();
  }

  int runningCount() {
    return running.size();
  }

  int waitingCount() {
    return waiting.size();
  }

  KvCache kv() {
    return kv;
  }

  long preemptions() {
    return preemptions;
  }

  List<SimRequest> scheduled() {
    return scheduled;
  }

  /** Tokens of the last scheduled step. */
  long lastStepTokens() {
    return lastStepTokens;
  }

  /** Plans one step starting at {@code nowNanos}; false when nothing could be scheduled. */
  boolean schedule(long nowNanos) {
    step.reset();
    scheduled.clear();
    int budget = maxNumBatchedTokens;
    boolean preempted = false;
    for (int i = 0; i < running.size() && budget > 0; i++) {
      SimRequest r = running.get(i);
      if (r.transferredUntilNanos - nowNanos > 0) {
        continue; // its KV is still on its way to the decode instance
      }
      int n = Math.min(r.numTokens() - r.computed, budget);
      int drafts = drafts(r, n, budget);
      boolean fits;
      while (!(fits = kv.allocate(r, n + drafts))) {
        SimRequest victim = running.remove(running.size() - 1); // the newest running request
        preempt(victim);
        preempted = true;
        if (victim == r) {
          break;
        }
      }
      if (!fits) {
        break;
      }
      add(r, n, drafts);
      budget -= n + drafts;
    }
    if (!preempted) {
      while (budget > 0 && running.size() < maxNumSeqs && !waiting.isEmpty()) {
        SimRequest r = waiting.peek();
        if (r.readyNanos - nowNanos > 0) {
          break; // still on its way to the engine (later arrivals are behind it)
        }
        int hits = kv.cachedPrefixBlocks(r);
        int n = Math.min(r.numTokens() - hits * kv.blockSize(), budget);
        if (!kv.admit(r, hits, n)) {
          break;
        }
        waiting.poll();
        if (r.firstScheduledNanos < 0) {
          r.firstScheduledNanos = nowNanos;
          r.cachedPromptTokens = r.computed;
          if (r.writer != null) {
            r.writer.admitted(r.cachedPromptTokens);
          }
          metrics.admitted(r, nowNanos);
        }
        running.add(r);
        add(r, n, 0);
        budget -= n;
      }
    }
    lastStepTokens = step.tokens();
    return !scheduled.isEmpty();
  }

  private void preempt(SimRequest victim) {
    kv.free(victim);
    victim.computed = 0;
    victim.preemptions++;
    victim.scheduledThisStep = 0;
    victim.draftedThisStep = 0;
    waiting.addFirst(victim);
    preemptions++;
    metrics.preempted();
  }

  /**
   * The drafts a decode step of {@code r} verifies: none outside speculative decoding, for a
   * prefill, past the request's last token, or for a writer that cannot put several in a chunk.
   */
  private int drafts(SimRequest r, int n, int budget) {
    if (!speculation.on()
        || n != 1
        || r.generated == 0
        || r.writer == null
        || !r.writer.writesSeveralTokensPerChunk()) {
      return 0;
    }
    return Math.max(
        0, Math.min(speculation.tokens(), Math.min(r.maxTokens - r.generated - 1, budget - n)));
  }

  private void add(SimRequest r, int n, int drafts) {
    r.scheduledThisStep = n;
    r.draftedThisStep = drafts;
    // the step computes the sampled token and each draft
    step.add(r.computed, n + drafts, r.samplesAfter(n));
    scheduled.add(r);
  }

  long durationNanos() {
    return step.durationNanos();
  }

  /** The planned step's busy seconds ({@link CostModel.Step#busySeconds()}), after its duration. */
  double busySeconds() {
    return step.busySeconds();
  }

  /** The planned step's intensity ({@link CostModel.Step#intensity()}), after its duration. */
  double intensity() {
    return step.intensity();
  }

  /**
   * Applies the planned step as of its end: computed tokens, prefix-cache registration, one sampled
   * token per request whose tokens are all computed, finished requests removed.
   */
  void complete(long endNanos, TokenSink sink) {
    finishedThisStep.clear();
    for (int i = 0, n = scheduled.size(); i < n; i++) {
      SimRequest r = scheduled.get(i);
      boolean samples = r.samplesAfter(r.scheduledThisStep);
      r.computed += r.scheduledThisStep;
      kv.cacheFullBlocks(r);
      if (!samples) {
        continue; // a chunk of a longer prefill: no token yet
      }
      if (kvTransferBytesPerS > 0 && !r.transferred) {
        handOver(r, endNanos);
        continue;
      }
      int k = r.generated++;
      metrics.token(r, k, endNanos);
      if (r.draftedThisStep > 0) {
        int accepted = speculation.accepted(r.draftedThisStep, acceptances);
        metrics.speculated(r.draftedThisStep, accepted);
        r.generated += accepted;
        r.computed += accepted;
        k += accepted;
      }
      sink.token(r, k, endNanos);
      if (r.finished()) {
        r.finishedNanos = endNanos;
        finishedThisStep.add(r);
      }
    }
    if (!finishedThisStep.isEmpty()) {
      for (SimRequest r : finishedThisStep) {
        kv.free(r);
        metrics.finished(r, endNanos);
      }
      running.removeIf(SimRequest::finished);
    }
    metrics.gauges(running.size(), waiting.size(), kv.usage());
  }

  /**
   * Disaggregated serving: the prefill instance's work on {@code r} ends here; its prompt's KV goes
   * to the decode instance, which recomputes the prompt's last token once the KV has arrived and
   * samples the first output token then, as vLLM's NIXL connector does.
   */
  private void handOver(SimRequest r, long endNanos) {
    r.transferred = true;
    r.computed -= 1;
    double bytes = kvBytesPerToken * r.promptTokens;
    double seconds = KV_TRANSFER_LATENCY_S + bytes / kvTransferBytesPerS;
    r.transferredUntilNanos = endNanos + (long) (seconds * 1e9);
    metrics.kvTransferred(bytes, seconds);
  }

  /** A transfer's fixed cost: the handshake and the RDMA post, before the bytes move. */
  static final double KV_TRANSFER_LATENCY_S = 0.001;

  /** Requests that finished in the last completed step. */
  List<SimRequest> finishedThisStep() {
    return finishedThisStep;
  }
}
