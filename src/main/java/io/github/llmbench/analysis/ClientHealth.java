package io.github.llmbench.analysis;

import io.github.llmbench.records.ClientSample;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * How healthy the load generator was over a level and over its steady window, from the probe's
 * samples ({@link ClientSample}): a loop that runs its tasks late stamps every read late by as
 * much, so its lag bounds the error of the TTFT and ITL it measured. Pure.
 *
 * @param level over the level, from its first send to its last end
 * @param steady over its steady window ({@link Window#NONE} without one)
 */
public record ClientHealth(Window level, Window steady) {

  public static final ClientHealth NONE = new ClientHealth(Window.NONE, Window.NONE);

  /**
   * Loops whose tasks wait longer than this at p99 limit what they measure: on the paced server
   * (docs/capture.md, Client health) the kit's ITL error p99 was 2 ms where the lag p99 was 0.9 ms,
   * and 10 ms where it was 19 ms.
   */
  public static final double LAG_P99_LIMIT_MS = 2.0;

  /** A loop's thread busier than this share of a core has no slack left for reads. */
  public static final double BUSY_LIMIT_PCT = 90.0;

  /**
   * A JVM using this share of the cores it may run on, its loops late, holds the cores itself: its
   * loops waited for each other, not for another process.
   */
  public static final double JVM_BUSY_PCT = 80.0;

  /**
   * Loops busier than this, when late, are late from their own work; idler ones waited for a core.
   */
  public static final double OWN_WORK_PCT = 50.0;

  /** What the client's health says of the figures it measured. */
  public enum Verdict {
    HEALTHY("healthy"),
    /** Late or saturated from its own work: more load than one injector reads truly. */
    BOTTLENECK("client bottleneck"),
    /** Late while mostly idle: its threads waited for a core another process or thread held. */
    DELAYED("client delayed"),
    UNMEASURED("not measured");

    private final String text;

    Verdict(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /**
   * The client over one stretch of the run.
   *
   * @param windowS the samples' total span
   * @param cores the cores the JVM may run on
   * @param loops Gatling's event loops watched
   * @param cpuCores the process's CPU time per second of the span (1.0 = one core busy), NaN when
   *     the JVM cannot tell
   * @param busiestLoopPct the busiest loop thread's CPU share of a core, NaN when unknown
   * @param lagP50Ms how late the probe's tasks ran, median
   * @param lagP99Ms ... p99
   * @param lagMaxMs ... the latest
   * @param probes how many probe tasks ran
   * @param gcPauseMs time the application was paused for GC
   * @param heapMaxMb the most heap in use at a sample's end
   * @param lateOwnPct of the time late tasks waited (those over 1 ms), the share their loop spent
   *     running its own work, NaN when none was late
   */
  public record Window(
      double windowS,
      int cores,
      int loops,
      double cpuCores,
      double busiestLoopPct,
      double lagP50Ms,
      double lagP99Ms,
      double lagMaxMs,
      long probes,
      double gcPauseMs,
      double heapMaxMb,
      double lateOwnPct) {

    public static final Window NONE =
        new Window(
            0,
            0,
            0,
            Double.NaN,
            Double.NaN,
            Double.NaN,
            Double.NaN,
            Double.NaN,
            0,
            0,
            0,
            Double.NaN);

    /** Whether any probe ran in it. */
    public boolean measured() {
      return probes > 0;
    }

    /** The JVM's CPU as a share of the cores it may run on, NaN when unknown. */
    public double cpuPct() {
      return cores > 0 ? 100.0 * cpuCores / cores : Double.NaN;
    }

    /** GC pauses as a share of the window. */
    public double gcPausePct() {
      return windowS > 0 ? 100.0 * gcPauseMs / (1000.0 * windowS) : Double.NaN;
    }

    public Verdict verdict() {
      if (!measured()) {
        return Verdict.UNMEASURED;
      }
      if (busiestLoopPct >= BUSY_LIMIT_PCT) {
        return Verdict.BOTTLENECK;
      }
      if (!(lagP99Ms > LAG_P99_LIMIT_MS)) {
        return Verdict.HEALTHY;
      }
      return lateOwnPct >= OWN_WORK_PCT || cpuPct() >= JVM_BUSY_PCT || Double.isNaN(lateOwnPct)
          ? Verdict.BOTTLENECK
          : Verdict.DELAYED;
    }

    /** The samples whose middle lies within {@code [startMs, endMs]}. */
    static Window of(List<ClientSample> samples, long startMs, long endMs) {
      long spanMs = 0;
      long cpuNanos = 0;
      boolean cpuKnown = true;
      int loops = 0;
      int cores = 0;
      long gcMs = 0;
      long heapMax = 0;
      TreeMap<Long, Long> lag = new TreeMap<>();
      long[] loopCpu = new long[0];
      long[] loopSpan = new long[0];
      long late = 0;
      long lateBusy = 0;
      for (ClientSample s : samples) {
        double middle = s.timeMs() - s.spanMs() / 2.0;
        if (middle < startMs || middle > endMs) {
          continue;
        }
        spanMs += s.spanMs();
        late += s.lateMicros();
        lateBusy += s.lateBusyMicros();
        cpuKnown &= s.processCpuNanos() >= 0;
        cpuNanos += Math.max(0, s.processCpuNanos());
        gcMs += s.gcPauseMillis();
        heapMax = Math.max(heapMax, s.heapUsedBytes());
        loops = Math.max(loops, s.loopCpuNanos().length);
        cores = Math.max(cores, s.cores());
        if (loopCpu.length < loops) {
          loopCpu = Arrays.copyOf(loopCpu, loops);
          loopSpan = Arrays.copyOf(loopSpan, loops);
        }
        for (int i = 0; i < s.loopCpuNanos().length; i++) {
          if (s.loopCpuNanos()[i] >= 0) {
            loopCpu[i] += s.loopCpuNanos()[i];
            loopSpan[i] += s.spanMs();
          }
        }
        for (int i = 0; i < s.lagMicros().length; i++) {
          lag.merge(s.lagMicros()[i], (long) s.lagCounts()[i], Long::sum);
        }
      }
      long probes = lag.values().stream().mapToLong(Long::longValue).sum();
      if (spanMs == 0) {
        return NONE;
      }
      double busiest = Double.NaN;
      for (int i = 0; i < loops; i++) {
        if (loopSpan[i] > 0) {
          double pct = 100.0 * loopCpu[i] / (loopSpan[i] * 1e6);
          busiest = Double.isNaN(busiest) ? pct : Math.max(busiest, pct);
        }
      }
      return new Window(
          spanMs / 1000.0,
          cores,
          loops,
          cpuKnown ? cpuNanos / (spanMs * 1e6) : Double.NaN,
          busiest,
          rank(lag, probes, 0.50),
          rank(lag, probes, 0.99),
          lag.isEmpty() ? Double.NaN : lag.lastKey() / 1000.0,
          probes,
          gcMs,
          heapMax / (1024.0 * 1024.0),
          late > 0 ? 100.0 * lateBusy / late : Double.NaN);
    }

    /** The nearest-rank quantile of counted values, in ms. */
    private static double rank(TreeMap<Long, Long> counts, long total, double q) {
      if (total == 0) {
        return Double.NaN;
      }
      long rank = Math.max(1, (long) Math.ceil(q * total));
      long seen = 0;
      for (var e : counts.entrySet()) {
        seen += e.getValue();
        if (seen >= rank) {
          return e.getKey() / 1000.0;
        }
      }
      return counts.lastKey() / 1000.0;
    }
  }

  /**
   * The client over a level ({@code [startMs, endMs]}) and its steady window (both 0 without one).
   */
  public static ClientHealth of(
      List<ClientSample> samples, long startMs, long endMs, long steadyStartMs, long steadyEndMs) {
    if (samples.isEmpty()) {
      return NONE;
    }
    return new ClientHealth(
        Window.of(samples, startMs, endMs),
        steadyEndMs > steadyStartMs ? Window.of(samples, steadyStartMs, steadyEndMs) : Window.NONE);
  }

  /** The window the verdict is given on: the steady one where it was measured, else the level. */
  public Window judged() {
    return steady.measured() ? steady : level;
  }

  public Verdict verdict() {
    return judged().verdict();
  }

  /**
   * The guard line when the client limited what it measured at {@code levelName}, else null: "the
   * client was the bottleneck at c1024: loop lag p99 41 ms, core 97% busy; ...".
   */
  public String guard(String levelName) {
    Window w = judged();
    return switch (w.verdict()) {
      case BOTTLENECK ->
          String.format(
              Locale.ROOT,
              "the client was the bottleneck at %s: event-loop lag p99 %.2f ms (max %.1f ms),"
                  + " busiest loop %.0f%% of a core, the JVM %.2f of its %d cores; its TTFT/ITL readings carry"
                  + " up to that error: lower the load per injector, give it more cores, shard it"
                  + " (-Dinjector), or take blocking work off its event loops",
              levelName,
              w.lagP99Ms(),
              w.lagMaxMs(),
              w.busiestLoopPct(),
              w.cpuCores(),
              w.cores());
      case DELAYED ->
          String.format(
              Locale.ROOT,
              "the client's event loops ran late at %s: lag p99 %.2f ms (max %.1f ms), running"
                  + " for only %.0f%% of that time, so they waited for a core (the embedded"
                  + " simulator, another process or GC on this machine) or in a blocking call; its"
                  + " TTFT/ITL readings carry up to that error: run the client where it has a core"
                  + " of its own",
              levelName,
              w.lagP99Ms(),
              w.lagMaxMs(),
              w.lateOwnPct());
      default -> null;
    };
  }
}
