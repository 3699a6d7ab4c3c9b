package io.github.llmbench.simulator;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * Runs the simulator alone until Ctrl-C. Its flags are the knobs' ({@link SimKnobs}: the same
 * readers, defaults and help as the kit's {@code -Dsim.*}), vLLM's {@code vllm serve} names where
 * vLLM has the knob ({@code --port --model --served-model-name --tp (--tensor-parallel-size)
 * --max-num-seqs --max-num-batched-tokens --gpu-memory-utilization}), the simulator's own else
 * ({@code --gpu}, {@code --dialect}, {@code --faults}, {@code --noise}, {@code --process-sd},
 * {@code --slowdown} and {@code --seed}: the noise's and the process factor's, fresh per start
 * unless given, ...).
 */
public final class VllmSimulatorMain {

  private VllmSimulatorMain() {}

  /**
   * The flag that prints a line for each admitted request ({@code request ID model M}), as vLLM's
   * {@code --enable-log-requests} logs them: what a test that starts the simulator as a process
   * reads back to see each request arrive once, at the process it was meant for.
   */
  static final String LOG_REQUESTS = "--log-requests";

  public static void main(String[] args) throws InterruptedException {
    // Netty through java.util.logging (INFO): keeps Netty's DEBUG start-up chatter out of the
    // console.
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    SimulatorConfig c;
    List<String> rest = new ArrayList<>(List.of(args));
    boolean logRequests = rest.remove(LOG_REQUESTS);
    try {
      c = parse(rest.toArray(String[]::new));
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
            + ", pid "
            + ProcessHandle.current().pid()
            + ")");
    if (logRequests) {
      PrintStream out = System.out;
      sim.onReceived(r -> out.println("request " + r.requestId() + " model " + r.model()));
    }
    stopped.await();
  }

  /**
   * The usage line, then each flag with its meaning, default and what it accepts: the knobs'
   * table's words ({@link SimKnobs}).
   */
  static String usage() {
    StringBuilder sb = new StringBuilder("usage: VllmSimulatorMain");
    List<Knob<?>> flagged = SimKnobs.ALL.stream().filter(k -> !k.flags().isEmpty()).toList();
    flagged.forEach(
        k -> sb.append(" [").append(k.flags().get(0)).append(' ').append(k.usage()).append(']'));
    sb.append(" [").append(LOG_REQUESTS).append("]\n");
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-28s %s%n",
            LOG_REQUESTS,
            "print a line for each admitted request: request <x-request-id> model <model>"));
    for (Knob<?> k : flagged) {
      sb.append(
          String.format(Locale.ROOT, "  %-28s %s%n", String.join(", ", k.flags()), k.meaning()));
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-28s default: %s; accepts: %s%n",
              "",
              k.defaultWords(),
              k.accepted()));
    }
    return sb.toString();
  }

  /**
   * {@code , noise 0.1 (seed 42), process speed factor 1.0321 (--process-sd 0.04, seed 42),
   * slowdown 1.1} when set, else nothing: the factor this start drew, and from what.
   */
  static String noiseWords(SimNoise n) {
    return (n.cv() > 0 ? ", noise " + n.cv() + " (seed " + n.seed() + ")" : "")
        + (n.processSd() > 0
            ? String.format(
                Locale.ROOT,
                ", process speed factor %.4f (--process-sd %s, seed %d)",
                n.processFactor(),
                SimKnobs.plain(n.processSd()),
                n.seed())
            : "")
        + (n.slowdown() != 1 ? ", slowdown " + n.slowdown() : "");
  }

  /**
   * Parses the flags, each by its knob ({@link SimKnobs}); null means --help.
   * IllegalArgumentException: one line naming the argument, the value and what is accepted.
   */
  static SimulatorConfig parse(String[] args) {
    SimulatorConfig c = SimulatorConfig.defaults().withPort(SimKnobs.PORT.defaultValue());
    boolean seedGiven = false;
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
      String flag = a;
      Knob<?> knob =
          SimKnobs.byFlag(flag)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          flag + ": unknown argument (accepted: " + flags() + ")"));
      c = applied(c, knob, flag, v);
      seedGiven |= knob == SimKnobs.SEED;
    }
    if (!seedGiven && !c.noise().off()) {
      // a fresh seed per start unless given, as the kit's runs have
      c = c.withSeed(new SecureRandom().nextLong() & 0xFFFF_FFFFL);
    }
    return c;
  }

  /** The config with the flag's value, read by its knob. */
  private static <T> SimulatorConfig applied(
      SimulatorConfig c, Knob<T> knob, String flag, String value) {
    T v;
    try {
      v = knob.reader().read(value);
    } catch (Knob.Refused e) {
      throw new IllegalArgumentException(
          flag + ": '" + value + "' is invalid (accepted: " + e.accepted() + ")");
    }
    return c.with(knob, v);
  }

  /** Each knob's first flag, in the table's order. */
  private static String flags() {
    return SimKnobs.ALL.stream()
        .filter(k -> !k.flags().isEmpty())
        .map(k -> k.flags().get(0))
        .collect(Collectors.joining(", "));
  }
}
