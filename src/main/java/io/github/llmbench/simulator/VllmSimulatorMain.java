package io.github.llmbench.simulator;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.HfConfig;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.security.SecureRandom;
import java.util.List;
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
        + "] [--faults 429:0.05,cut:0.02,...] [--noise 0] [--slowdown 1] [--seed N] [--tokens-per-chunk 1] [--reasoning 0] [--profiler false] [--num-speculative-tokens 0] [--spec-acceptance 0.7] [--kv-transfer-gbps GBPS]";
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
    NoiseFlags noise = NoiseFlags.NONE;
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
      if (NoiseFlags.NAMES.contains(a)) {
        noise = noise.with(a, v);
      } else {
        c = withFlag(c, a, v);
      }
    }
    return noise.appliedTo(c);
  }

  /**
   * The noise flags, applied together once all are read.
   *
   * @param cv {@code --noise}
   * @param slowdown {@code --slowdown}
   * @param seed {@code --seed}, null when not given
   */
  private record NoiseFlags(double cv, double slowdown, Long seed) {
    static final NoiseFlags NONE = new NoiseFlags(0, 1, null);
    static final List<String> NAMES = List.of("--noise", "--slowdown", "--seed");

    NoiseFlags with(String a, String v) {
      return switch (a) {
        case "--noise" ->
            new NoiseFlags(
                doubleArg(a, v, x -> x >= 0 && x <= SimNoise.MAX_CV, SimNoise.CV_ACCEPTED),
                slowdown,
                seed);
        case "--slowdown" ->
            new NoiseFlags(
                cv,
                doubleArg(
                    a, v, x -> x > 0 && x <= SimNoise.MAX_SLOWDOWN, SimNoise.SLOWDOWN_ACCEPTED),
                seed);
        default -> new NoiseFlags(cv, slowdown, longArg(a, v));
      };
    }

    SimulatorConfig appliedTo(SimulatorConfig c) {
      if (cv > 0 || slowdown != 1) {
        // a fresh seed per start unless given, as the kit's runs have
        long s = seed != null ? seed : new SecureRandom().nextLong() & 0xFFFF_FFFFL;
        return c.withNoise(new SimNoise(cv, slowdown, s));
      }
      return c;
    }
  }

  /** Each draft's chance to be kept when only {@code --num-speculative-tokens} is given. */
  static final double DEFAULT_ACCEPTANCE = 0.7;

  /** The configuration with one flag other than the noise flags applied. */
  private static SimulatorConfig withFlag(SimulatorConfig c, String a, String v) {
    return switch (a) {
      case "--port" -> c.withPort(intArg(a, v, 0, 65535));
      case "--faults" -> {
        try {
          yield c.withFaults(SimFaults.parse(v));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              a + ": '" + v + "' is invalid (accepted: " + SimFaults.ACCEPTED + ")");
        }
      }
      case "--model" -> c.withModel(knownModel(a, v));
      case "--served-model-name" -> c.withServedModelName(v);
      case "--gpu" -> c.withGpu(knownGpu(a, v));
      case "--tp", "--tensor-parallel-size", "-tp" -> c.withTp(intArg(a, v, 1, 1024));
      case "--max-num-seqs" -> c.withMaxNumSeqs(intArg(a, v, 1, 1 << 20));
      case "--max-num-batched-tokens" -> c.withMaxNumBatchedTokens(intArg(a, v, 1, 1 << 24));
      case "--gpu-memory-utilization" ->
          c.withGpuMemoryUtilization(
              doubleArg(a, v, d -> d > 0 && d <= 1, "a number > 0 and <= 1"));
      case "--reasoning" -> c.withReasoningTokens(intArg(a, v, 0, 1 << 20));
      // as vLLM started with VLLM_TORCH_PROFILER_DIR: /start_profile and /stop_profile answer
      case "--profiler" -> {
        if (!v.equals("true") && !v.equals("false")) {
          throw new IllegalArgumentException(
              a + ": '" + v + "' is invalid (accepted: true or false)");
        }
        yield c.withProfiler(v.equals("true"));
      }
      case "--tokens-per-chunk" ->
          c.withTokensPerChunk(intArg(a, v, 1, SimulatorConfig.MAX_TOKENS_PER_CHUNK));
      // vLLM's older flag for its speculative config's num_speculative_tokens
      case "--num-speculative-tokens" ->
          c.withSpeculation(
              new SimSpeculation(
                  intArg(a, v, 0, SimSpeculation.MAX_TOKENS),
                  c.speculation().on() ? c.speculation().acceptance() : DEFAULT_ACCEPTANCE));
      // the simulator's own: a prefill and a decode instance joined by a link of this rate
      case "--kv-transfer-gbps" ->
          c.withKvTransfer(doubleArg(a, v, d -> d > 0 && d <= 10_000, "a number of GB/s > 0"));
      case "--spec-acceptance" ->
          c.withSpeculation(
              new SimSpeculation(
                  c.speculation().tokens(),
                  doubleArg(a, v, d -> d >= 0 && d <= 1, "a number from 0 to 1")));
      case "--dialect" -> {
        try {
          yield c.withDialect(Dialect.fromId(v));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(a + ": " + e.getMessage());
        }
      }
      default ->
          throw new IllegalArgumentException(
              a
                  + ": unknown argument (accepted: --port, --model, "
                  + "--served-model-name, --gpu, --tp, --max-num-seqs, --max-num-batched-tokens, --gpu-memory-utilization, "
                  + "--dialect, --faults, --noise, --slowdown, --seed, --tokens-per-chunk, --reasoning, --profiler, "
                  + "--num-speculative-tokens, --spec-acceptance, --kv-transfer-gbps)");
    };
  }

  private static String knownModel(String a, String v) {
    if (!Catalog.models().containsKey(v) && !HfConfig.isConfigPath(v)) {
      throw new IllegalArgumentException(
          a
              + ": unknown model '"
              + v
              + "' (accepted: "
              + String.join(", ", Catalog.models().keySet())
              + ", or a Hugging Face config.json path)");
    }
    return v;
  }

  private static String knownGpu(String a, String v) {
    if (!Catalog.gpus().containsKey(v)) {
      throw new IllegalArgumentException(
          a
              + ": unknown gpu '"
              + v
              + "' (accepted: "
              + String.join(", ", Catalog.gpus().keySet())
              + ")");
    }
    return v;
  }

  private static long longArg(String a, String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(a + ": '" + v + "' is invalid (accepted: a whole number)");
    }
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
