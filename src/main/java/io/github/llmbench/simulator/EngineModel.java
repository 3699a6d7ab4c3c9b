package io.github.llmbench.simulator;

import io.github.llmbench.catalog.EngineCalibration;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The simulator's engine in virtual time: the same {@link Scheduler} and {@link CostModel} as the
 * live {@link Engine}, stepped as fast as the CPU allows, with closed-loop clients (vLLM bench's
 * {@code --max-concurrency} with {@code --num-prompts}) that send their next request at the end of
 * the step that finished the previous one; it reaches the engine a request path later. A 500-prompt
 * level takes well under a second.
 */
public final class EngineModel {

  /** Result of one closed-loop level, as vLLM's serving benchmark reports it. */
  public record Level(
      int concurrency,
      int prompts,
      double durationS,
      double meanTtftMs,
      double meanTpotMs,
      double outputThroughput,
      long preemptions,
      long prefixHitTokens,
      double peakKvUsage,
      int kvBlocks,
      long promptTokens) {

    /** Share of the level's prompt tokens served by the prefix cache. */
    public double prefixHitRate() {
      return promptTokens == 0 ? 0 : (double) prefixHitTokens / promptTokens;
    }
  }

  private final ModelSpec model;
  private final GpuSpec gpu;
  private final int tp;
  private final int maxNumSeqs;
  private final int maxNumBatchedTokens;
  private final double gpuMemoryUtilization;
  private final EngineCalibration calibration;

  public EngineModel(
      ModelSpec model,
      GpuSpec gpu,
      int tp,
      int maxNumSeqs,
      int maxNumBatchedTokens,
      double gpuMemoryUtilization,
      EngineCalibration calibration) {
    this.model = model;
    this.gpu = gpu;
    this.tp = tp;
    this.maxNumSeqs = maxNumSeqs;
    this.maxNumBatchedTokens = maxNumBatchedTokens;
    this.gpuMemoryUtilization = gpuMemoryUtilization;
    this.calibration = calibration;
  }

  /**
   * Simulator defaults (max_num_seqs 256, max_num_batched_tokens 2048, gpu_memory_utilization 0.9).
   */
  public static EngineModel of(SimulatorConfig c) {
    return new EngineModel(
        c.modelSpec(),
        c.gpuSpec(),
        c.tp(),
        c.maxNumSeqs(),
        c.maxNumBatchedTokens(),
        c.gpuMemoryUtilization(),
        EngineCalibration.DEFAULT);
  }

  public EngineModel withCalibration(EngineCalibration c) {
    return new EngineModel(
        model, gpu, tp, maxNumSeqs, maxNumBatchedTokens, gpuMemoryUtilization, c);
  }

  CostModel costModel() {
    return new CostModel(model, gpu, tp, gpuMemoryUtilization, calibration);
  }

  /**
   * Runs {@code prompts} requests of {@code inputLen} random (never repeated) prompt tokens and
   * {@code outputLen} output tokens, at most {@code concurrency} in flight, on a fresh engine.
   */
  public Level closedLoop(int concurrency, int prompts, int inputLen, int outputLen, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Server server = new Server();
    return server.level(
        concurrency,
        prompts,
        (i, t) -> request(rnd, inputLen, outputLen, server.cost.blockSize(), t));
  }

  /**
   * The seed's procedure: one server, the levels run in order (each drains before the next), every
   * level a separate {@code vllm bench serve} run of the random dataset with its default seed, so
   * level {@code k} sends the first {@code prompts[k]} prompts of one fixed list, and the automatic
   * prefix cache keeps what earlier levels left in the KV cache's free blocks.
   */
  public List<Level> replayLadder(
      int[] concurrencies, int[] prompts, int inputLen, int outputLen, long datasetSeed) {
    Server server = new Server();
    List<long[]> list = new ArrayList<>();
    List<Level> out = new ArrayList<>();
    for (int k = 0; k < concurrencies.length; k++) {
      out.add(
          server.level(
              concurrencies[k],
              prompts[k],
              (i, t) -> {
                while (list.size() <= i) {
                  SplittableRandom rnd =
                      new SplittableRandom(datasetSeed * 1_000_003L + list.size());
                  list.add(hashes(rnd, inputLen, server.cost.blockSize()));
                }
                return new SimRequest(inputLen, outputLen, null, list.get(i), t);
              }));
    }
    return out;
  }

  /** The i-th request of a level, arriving at {@code nowNanos}. */
  private interface Next {
    SimRequest at(int i, long nowNanos);
  }

  /** One engine (scheduler, KV cache, virtual clock) that successive levels run against. */
  private final class Server {
    final SimMetrics metrics = new SimMetrics();
    final CostModel cost = costModel();
    final Scheduler s = new Scheduler(cost, maxNumSeqs, maxNumBatchedTokens, metrics);
    long now;

    /** A closed-loop level, from the server's current state and clock. */
    Level level(int concurrency, int prompts, Next next) {
      long start = now;
      long preempt0 = s.preemptions();
      long hits0 = metrics.prefixHits();
      List<SimRequest> done = new ArrayList<>(prompts);
      int sent = 0;
      for (; sent < Math.min(concurrency, prompts); sent++) {
        s.add(next.at(sent, now));
      }
      double peakKv = 0;
      long outputTokens = 0;
      while (done.size() < prompts) {
        if (!s.schedule(now)) {
          long ready = s.nextReadyNanos();
          if (ready != Long.MAX_VALUE && ready - now > 0) {
            now = ready; // nothing runs until the next request reaches the engine
            continue;
          }
          throw new IllegalStateException(
              "nothing schedulable: a request does not fit the KV cache ("
                  + cost.kvBlocks()
                  + " blocks)");
        }
        long end = now + s.durationNanos();
        s.complete(end, (r, k, t) -> {});
        peakKv = Math.max(peakKv, s.kv().usage());
        for (SimRequest r : s.finishedThisStep()) {
          done.add(r);
          outputTokens += r.generated;
          if (sent < prompts) {
            s.add(next.at(sent, end));
            sent++;
          }
        }
        now = end;
      }
      double ttft = 0;
      double tpot = 0;
      for (SimRequest r : done) {
        ttft += (r.firstTokenNanos - r.arrivalNanos) / 1e6;
        tpot +=
            r.maxTokens > 1 ? (r.finishedNanos - r.firstTokenNanos) / 1e6 / (r.maxTokens - 1) : 0;
      }
      double durationS = (now - start) / 1e9;
      return new Level(
          concurrency,
          prompts,
          durationS,
          ttft / done.size(),
          tpot / done.size(),
          outputTokens / durationS,
          s.preemptions() - preempt0,
          metrics.prefixHits() - hits0,
          peakKv,
          cost.kvBlocks(),
          (long) prompts * done.get(0).promptTokens);
    }
  }

  private static SimRequest request(
      SplittableRandom rnd, int inputLen, int outputLen, int blockSize, long now) {
    return new SimRequest(inputLen, outputLen, null, hashes(rnd, inputLen, blockSize), now);
  }

  private static long[] hashes(SplittableRandom rnd, int inputLen, int blockSize) {
    int[] tokens = new int[inputLen];
    for (int i = 0; i < inputLen; i++) {
      tokens[i] = rnd.nextInt(150_000);
    }
    return SimRequest.hashBlocks(tokens, inputLen, blockSize);
  }
}
