package io.github.llmbench.simulator;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.HfConfig;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.security.SecureRandom;
import java.util.concurrent.CountDownLatch;
import java.util.function.DoublePredicate;

/**
 * Runs the simulator alone until Ctrl-C. Flags follow vLLM's {@code vllm serve}: {@code --port
 * --model --served-model-name --gpu --tp (--tensor-parallel-size) --max-num-seqs
 * --max-num-batched-tokens --gpu-memory-utilization --dialect}; the simulator's own: {@code
 * --faults}, {@code --noise}, {@code --slowdown} and {@code --seed} (the noise's; fresh per start
 * unless given).
 */
public final class VllmSimulatorMain {

  private VllmSimulatorMain() {}

  public static void main(String[] args) throws InterruptedException {
    // Netty through java.util.logging (INFO): keeps Netty's DEBUG start-up chatter out of the
    // console.
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    SimulatorConfig c;
    try {
      c = parse(args);
      if (c == null) {
        System.out.println(usage());
        return;
      }
      c.validate();
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    VllmSimulator sim;
    try {
      sim = VllmSimulator.start(c);
    } catch (IllegalStateException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  sim.close();
                  stopped.countDown();
                }));
    System.out.println(
        "vLLM simulator listening on "
            + sim.baseUrl()
            + " (model "
            + sim.servedModelName()
            + ", gpu "
            + c.gpu()
            + (c.tp() > 1 ? " x" + c.tp() : "")
            + (c.dialect() != Dialect.VLLM ? ", dialect " + c.dialect().id() : "")
            + noiseWords(c.noise())
            + ")");
    stopped.await();
  }

  static String usage() {
    return "usage: VllmSimulatorMain [--port 8000] [--model "
        + String.join("|", Catalog.models().keySet())
        + "] [--served-model-name NAME] [--gpu "
        + String.join("|", Catalog.gpus().keySet())
        + "] [--tp 1] [--max-num-seqs 256] [--max-num-batched-tokens 2048] [--gpu-memory-utilization 0.9] [--dialect "
        + String.join("|", Dialect.ids().split(", "))
        + "] [--faults 429:0.05,cut:0.02,...] [--noise 0] [--slowdown 1] [--seed N] [--tokens-per-chunk 1] [--reasoning 0] [--profiler false]";
  }

  /** {@code , noise 0.1 (seed 42), slowdown 1.1} when set, else nothing. */
  static String noiseWords(SimNoise n) {
    return (n.cv() > 0 ? ", noise " + n.cv() + " (seed " + n.seed() + ")" : "")
        + (n.slowdown() != 1 ? ", slowdown " + n.slowdown() : "");
  }

  /**
   * Parses the flags; null means --help. IllegalArgumentException: one line naming the argument.
   */
  static SimulatorConfig parse(String[] args) {
    SimulatorConfig c = SimulatorConfig.defaults().withPort(8000);
    double noise = 0;
    double slowdown = 1;
    Long seed = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        v = a.substring(eq + 1);
        a = a.substring(0, eq);
      }
      if (a.equals("-h") || a.equals("--help")) {
        return null;
      }
      if (v == null) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(a + ": missing value");
        }
        v = args[++i];
      }
      switch (a) {
        case "--port" -> c = c.withPort(intArg(a, v, 0, 65535));
        case "--faults" -> {
          try {
            c = c.withFaults(SimFaults.parse(v));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                a + ": '" + v + "' is invalid (accepted: " + SimFaults.ACCEPTED + ")");
          }
        }
        case "--model" -> {
          if (!Catalog.models().containsKey(v) && !HfConfig.isConfigPath(v)) {
            throw new IllegalArgumentException(
                a
                    + ": unknown model '"
                    + v
                    + "' (accepted: "
                    + String.join(", ", Catalog.models().keySet())
                    + ", or a Hugging Face config.json path)");
          }
          c = c.withModel(v);
        }
        case "--served-model-name" -> c = c.withServedModelName(v);
        case "--gpu" -> {
          if (!Catalog.gpus().containsKey(v)) {
            throw new IllegalArgumentException(
                a
                    + ": unknown gpu '"
                    + v
                    + "' (accepted: "
                    + String.join(", ", Catalog.gpus().keySet())
                    + ")");
          }
          c = c.withGpu(v);
        }
        case "--tp", "--tensor-parallel-size", "-tp" -> c = c.withTp(intArg(a, v, 1, 1024));
        case "--max-num-seqs" -> c = c.withMaxNumSeqs(intArg(a, v, 1, 1 << 20));
        case "--max-num-batched-tokens" -> c = c.withMaxNumBatchedTokens(intArg(a, v, 1, 1 << 24));
        case "--gpu-memory-utilization" -> {
          double d;
          try {
            d = Double.parseDouble(v);
          } catch (NumberFormatException e) {
            d = Double.NaN;
          }
          if (!(d > 0 && d <= 1)) {
            throw new IllegalArgumentException(
                a + ": '" + v + "' is invalid (accepted: a number > 0 and <= 1)");
          }
          c = c.withGpuMemoryUtilization(d);
        }
        case "--noise" ->
            noise = doubleArg(a, v, x -> x >= 0 && x <= SimNoise.MAX_CV, SimNoise.CV_ACCEPTED);
        case "--slowdown" ->
            slowdown =
                doubleArg(
                    a, v, x -> x > 0 && x <= SimNoise.MAX_SLOWDOWN, SimNoise.SLOWDOWN_ACCEPTED);
        case "--reasoning" -> c = c.withReasoningTokens(intArg(a, v, 0, 1 << 20));
        // as vLLM started with VLLM_TORCH_PROFILER_DIR: /start_profile and /stop_profile answer
        case "--profiler" -> {
          if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(
                a + ": '" + v + "' is invalid (accepted: true or false)");
          }
          c = c.withProfiler(v.equals("true"));
        }
        case "--tokens-per-chunk" ->
            c = c.withTokensPerChunk(intArg(a, v, 1, SimulatorConfig.MAX_TOKENS_PER_CHUNK));
        case "--seed" -> {
          try {
            seed = Long.parseLong(v);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                a + ": '" + v + "' is invalid (accepted: a whole number)");
          }
        }
        case "--dialect" -> {
          try {
            c = c.withDialect(Dialect.fromId(v));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(a + ": " + e.getMessage());
          }
        }
        default ->
            throw new IllegalArgumentException(
                a
                    + ": unknown argument (accepted: --port, --model, "
                    + "--served-model-name, --gpu, --tp, --max-num-seqs, --max-num-batched-tokens, --gpu-memory-utilization, "
                    + "--dialect, --faults, --noise, --slowdown, --seed, --tokens-per-chunk, --reasoning, --profiler)");
      }
    }
    if (noise > 0 || slowdown != 1) {
      // a fresh seed per start unless given, as the kit's runs have
      long s = seed != null ? seed : new SecureRandom().nextLong() & 0xFFFF_FFFFL;
      c = c.withNoise(new SimNoise(noise, slowdown, s));
    }
    return c;
  }

  private static double doubleArg(String name, String v, DoublePredicate accepts, String accepted) {
    try {
      double d = Double.parseDouble(v);
      if (Double.isFinite(d) && accepts.test(d)) {
        return d;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new IllegalArgumentException(
        name + ": '" + v + "' is invalid (accepted: " + accepted + ")");
  }

  private static int intArg(String name, String v, int min, int max) {
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new IllegalArgumentException(
        name + ": '" + v + "' is invalid (accepted: an integer from " + min + " to " + max + ")");
  }
}
