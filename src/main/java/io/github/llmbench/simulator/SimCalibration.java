package io.github.llmbench.simulator;

import io.github.llmbench.catalog.EngineCalibration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Calibration of the simulator against the seed study's TP=1 ladder (Qwen2.5-7B-Instruct, one RTX
 * 4080 32 GB, input 1,024, output 128, C = 1, 8, 16, 32, 64, 128, 200; 300 prompts when C <= 32
 * else 500), plus TP=2 at C=1. Prints, per level, the simulated mean TPOT and output throughput
 * beside the seed's.
 *
 * <pre>
 * --virtual (default)   the engine model in virtual time (EngineModel): seconds
 * --real                the live simulator over HTTP, in real time, with a closed-loop streaming
 *                       client in the same JVM (RealTimeLadder): about 30 minutes
 * --fresh               virtual time, every level on a fresh engine with fresh random prompts
 *                       (what a user's run sees; the default before the replay)
 * --replay (default)    virtual time, the seed's procedure: one server for the whole ladder, the
 *                       levels in order, each a separate vllm bench run with the random dataset's
 *                       default seed, so every level sends the first N prompts of one fixed list
 *                       and the prefix cache keeps what earlier levels left (EngineModel#replayLadder)
 * --levels 1,8,...      a subset of the ladder; --prompts-cap N caps the prompts per level
 * --tp2                 also TP=2 at C=1 (default: on)
 * </pre>
 */
public final class SimCalibration {

  static final int[] LEVELS = {1, 8, 16, 32, 64, 128, 200};
  static final double[] SEED_TPOT_MS = {25, 26, 36, 52, 90, 163, 263};

  /** Seed output throughput: given only at C=128 (~660 tok/s); C=200 is ~9% lower. */
  static final double SEED_TPUT_C128 = 660;

  static final double SEED_TP2_C1_TPOT_MS = 12.07;

  private SimCalibration() {}

  static int seedPrompts(int c) {
    return c <= 32 ? 300 : 500;
  }

  static double seedTpot(int c) {
    for (int i = 0; i < LEVELS.length; i++) {
      if (LEVELS[i] == c) {
        return SEED_TPOT_MS[i];
      }
    }
    return Double.NaN;
  }

  /**
   * The tool's flags.
   *
   * @param real whether to run the live simulator in real time, not the engine in virtual time
   * @param replay whether to replay the seed's procedure (one engine, one prompt list)
   * @param cap the most prompts of a level
   * @param levels the concurrencies to run; -1 stands for {@code --tp2-only}
   * @param tp2 whether to run TP=2 at C=1 too
   * @param calibration the engine's calibration, with the fitting aids applied
   */
  private record Options(
      boolean real,
      boolean replay,
      int cap,
      List<Integer> levels,
      boolean tp2,
      EngineCalibration calibration) {

    static Options parse(String[] args) {
      boolean real = false;
      boolean replay = true;
      int cap = Integer.MAX_VALUE;
      List<Integer> levels = new ArrayList<>();
      boolean tp2 = true;
      EngineCalibration cal = EngineCalibration.DEFAULT;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--real" -> real = true;
          case "--virtual" -> real = false;
          case "--replay" -> replay = true;
          case "--fresh" -> replay = false;
          case "--no-tp2" -> tp2 = false;
          case "--tp2-only" -> levels.add(-1);
          case "--prompts-cap" -> cap = Integer.parseInt(args[++i]);
          case "--levels" -> {
            for (String v : args[++i].split(",")) {
              levels.add(Integer.parseInt(v.trim()));
            }
          }
          // fitting aids (virtual only)
          case "--mem-eff" -> cal = cal.withMemoryEfficiency(Double.parseDouble(args[++i]));
          case "--compute-eff" -> cal = cal.withComputeEfficiency(Double.parseDouble(args[++i]));
          case "--overhead-ms" ->
              cal = cal.withStepOverheadSeconds(Double.parseDouble(args[++i]) / 1e3);
          case "--per-seq-us" ->
              cal = cal.withStepOverheadPerSeqSeconds(Double.parseDouble(args[++i]) / 1e6);
          case "--request-path-ms" ->
              cal = cal.withRequestPathSeconds(Double.parseDouble(args[++i]) / 1e3);
          case "--reserve-gb" ->
              cal = cal.withActivationReserveBytes((long) (Double.parseDouble(args[++i]) * 1e9));
          default ->
              throw new IllegalArgumentException(
                  "unknown argument "
                      + args[i]
                      + " (accepted: --virtual, --replay, --fresh, --real, --levels 1,8,..., --prompts-cap N, --no-tp2)");
        }
      }
      if (levels.isEmpty()) {
        levels.add(0);
        for (int c : LEVELS) {
          levels.add(c);
        }
      }
      if (levels.get(0) == 0) {
        levels.remove(0);
      }
      return new Options(real, replay, cap, levels, tp2, cal);
    }

    String how() {
      if (real) {
        return "real time, live simulator over HTTP (closed-loop streaming client in the same JVM)";
      }
      return replay
          ? "virtual time (EngineModel), the seed's procedure (one server, the same prompt list at every level)"
          : "virtual time (EngineModel), fresh engine and fresh prompts per level";
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    List<Integer> levels = new ArrayList<>(o.levels());
    SimulatorConfig config = SimulatorConfig.defaults();
    RealTimeLadder rt = o.real() && !levels.isEmpty() ? new RealTimeLadder(config) : null;
    System.out.println(
        "Simulator calibration, "
            + o.how()
            + ": "
            + config.modelSpec().hfId()
            + " on "
            + config.gpu()
            + ", TP=1, input 1024, output 128");
    EngineModel em = EngineModel.of(config).withCalibration(o.calibration());
    levels.remove(Integer.valueOf(-1));
    List<EngineModel.Level> rows = ladder(o, levels, em, rt);
    if (!rows.isEmpty()) {
      System.out.println();
      System.out.println(table(rows));
    }
    if (o.tp2()) {
      printTp2(o, config);
    }
    if (rt != null) {
      rt.close();
    }
  }

  /** The ladder's levels, each printed as it ends when in real time. */
  private static List<EngineModel.Level> ladder(
      Options o, List<Integer> levels, EngineModel em, RealTimeLadder rt) throws Exception {
    List<EngineModel.Level> rows = new ArrayList<>();
    if (!o.real() && o.replay() && !levels.isEmpty()) {
      int[] cs = levels.stream().mapToInt(Integer::intValue).toArray();
      int[] ns = new int[cs.length];
      for (int k = 0; k < cs.length; k++) {
        ns[k] = Math.min(o.cap(), seedPrompts(cs[k]));
      }
      rows.addAll(em.replayLadder(cs, ns, 1024, 128, 0));
      return rows;
    }
    for (int c : levels) {
      int prompts = Math.min(o.cap(), seedPrompts(c));
      EngineModel.Level l =
          o.real() ? rt.level(c, prompts, 1024, 128) : em.closedLoop(c, prompts, 1024, 128, 42 + c);
      rows.add(l);
      if (o.real()) {
        System.out.println(row(l, rows) + "   cpu " + rt.lastCpu());
        System.out.flush();
      }
    }
    return rows;
  }

  /** TP=2 at C=1 against the seed's. */
  private static void printTp2(Options o, SimulatorConfig config) throws Exception {
    EngineModel.Level t2 =
        o.real()
            ? new RealTimeLadder(config.withTp(2)).level(1, Math.min(o.cap(), 300), 1024, 128)
            : EngineModel.of(config.withTp(2))
                .withCalibration(o.calibration())
                .closedLoop(1, 300, 1024, 128, 7);
    System.out.printf(
        Locale.ROOT,
        "TP=2, C=1: mean TPOT %.2f ms (seed 12.07 ms, %+.1f%%), mean TTFT %.1f ms (seed 62.17), %.1f tok/s (seed 80.22)%n",
        t2.meanTpotMs(),
        100 * (t2.meanTpotMs() / SEED_TP2_C1_TPOT_MS - 1),
        t2.meanTtftMs(),
        t2.outputThroughput());
  }

  static String header() {
    return "| C | prompts | sim mean TPOT ms | seed TPOT ms | diff | sim mean TTFT ms | sim output tok/s | seed output tok/s | preemptions | peak KV use | prefix hits |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|";
  }

  static String row(EngineModel.Level l, List<EngineModel.Level> rows) {
    double seed = seedTpot(l.concurrency());
    String seedTput =
        l.concurrency() == 128 ? "~660 (peak)" : l.concurrency() == 200 ? "~600 (-9%)" : "";
    String rel = "";
    if (l.concurrency() == 200) {
      for (EngineModel.Level o : rows) {
        if (o.concurrency() == 128) {
          rel =
              String.format(
                  Locale.ROOT,
                  " (%+.1f%% vs C=128)",
                  100 * (l.outputThroughput() / o.outputThroughput() - 1));
        }
      }
    }
    // the live simulator's peak KV use is not sampled (real time): n/a
    String peakKv =
        Double.isNaN(l.peakKvUsage())
            ? "n/a"
            : String.format(Locale.ROOT, "%.0f%%", 100 * l.peakKvUsage());
    return String.format(
        Locale.ROOT,
        "| %d | %d | %.1f | %.0f | %+.1f%% | %.0f | %.0f%s | %s | %d | %s | %.1f%% |",
        l.concurrency(),
        l.prompts(),
        l.meanTpotMs(),
        seed,
        100 * (l.meanTpotMs() / seed - 1),
        l.meanTtftMs(),
        l.outputThroughput(),
        rel,
        seedTput,
        l.preemptions(),
        peakKv,
        100 * l.prefixHitRate());
  }

  static String table(List<EngineModel.Level> rows) {
    StringBuilder sb = new StringBuilder(header()).append('\n');
    for (EngineModel.Level l : rows) {
      sb.append(row(l, rows)).append('\n');
    }
    return sb.toString();
  }
}
