package io.github.llmbench.analysis;

import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A ramp level over time: its duration cut into equal windows, each with the load asked at its
 * middle, the requests sent and the output tokens finished per second, and the latency of the
 * requests sent in it; and where latency broke, the first window from which on (it and the next)
 * the median TTFT or TPOT is more than {@value #BREAK_FACTOR} times the ramp's start, or more than
 * {@value #BREAK_FAILED_PCT}% of requests failed. The start is the first window with at least
 * {@value #MIN_REQUESTS} completed requests. Trials of a ramp are laid over one another, each from
 * its own start. Pure.
 *
 * @param durationSeconds the ramp's length
 * @param leadSeconds the time from the ramp's start to its first send
 * @param windows in time order
 * @param breakAt the index of the window where latency broke, or -1 when it held
 * @param brokeBy what broke there ({@code median TTFT 820 ms, 8.6x the start's 95 ms}), or null
 */
public record RampWindows(
    Ramp ramp,
    double durationSeconds,
    double leadSeconds,
    List<Window> windows,
    int breakAt,
    String brokeBy) {

  /** A window's median latency this many times the start's breaks it. */
  public static final double BREAK_FACTOR = 2.0;

  /** A window with more failed requests than this share (in %) breaks. */
  public static final double BREAK_FAILED_PCT = 10.0;

  /** The fewest completed requests a window needs to be the start. */
  public static final int MIN_REQUESTS = 3;

  /** The most windows a ramp is cut into. */
  static final int MAX_WINDOWS = 20;

  public static final RampWindows NONE = new RampWindows(null, 0, 0, List.of(), -1, null);

  /**
   * How a ramp level was timed, so a re-done report cuts it the same way.
   *
   * @param seconds its length; 0 when not known, then taken from the sends (the last send from the
   *     first, rounded up to a whole second)
   * @param leadSeconds when the first request was due after the ramp's start (a rate ramp's first
   *     gap, from its schedule); NaN when not known, then the time the ramp expects its first
   *     arrival (0 for a concurrency ramp, whose first requests go at once)
   */
  public record Timing(double seconds, double leadSeconds) {
    public static final Timing UNKNOWN = new Timing(0, Double.NaN);
  }

  public RampWindows {
    windows = List.copyOf(windows);
  }

  /**
   * One stretch of the ramp.
   *
   * @param fromSeconds its start, from the ramp's
   * @param toSeconds its end
   * @param asked the ramp's load at its middle (requests/s or in flight)
   * @param sentPerSecond requests sent in it per second
   * @param outputTokensPerSecond output tokens of the requests that finished in it, per second
   * @param requests requests sent in it
   * @param failed of them, failed
   * @param medianTtftMs of the completed ones sent in it (NaN without)
   * @param p90TtftMs likewise
   * @param medianTpotMs likewise
   */
  public record Window(
      double fromSeconds,
      double toSeconds,
      double asked,
      double sentPerSecond,
      double outputTokensPerSecond,
      int requests,
      int failed,
      double medianTtftMs,
      double p90TtftMs,
      double medianTpotMs) {}

  public boolean isEmpty() {
    return windows.isEmpty();
  }

  /** Whether latency broke during the ramp. */
  public boolean broke() {
    return breakAt >= 0;
  }

  /** The window where latency broke; call only when {@link #broke()}. */
  public Window breakWindow() {
    return windows.get(breakAt);
  }

  /** The ramp's load where latency broke (at the window's start), or NaN when it held. */
  public double brokeAtLoad() {
    return broke() ? ramp.at(breakWindow().fromSeconds() / durationSeconds) : Double.NaN;
  }

  /** The ramp's windows over a level's records, or {@link #NONE} when the level is no ramp. */
  public static RampWindows of(List<RequestRecord> records, Timing timing) {
    if (records.isEmpty()
        || !(records.get(0).loadLevel().orElse(null) instanceof Level.Ramped ramped)) {
      return NONE;
    }
    Ramp ramp = ramped.ramp();
    // each trial from its own first send
    TrialSends sends = TrialSends.of(records);
    Map<Integer, Long> firstSend = sends.first();
    double d = timing.seconds();
    if (!(d > 0)) {
      d = Math.max(1, Math.ceil(sends.longestSpanMs() / 1000.0));
    }
    double lead =
        ramp.kind() == Ramp.Kind.CONCURRENCY
            ? 0
            : Double.isNaN(timing.leadSeconds())
                ? Math.min(d, ramp.timeOf(1, d))
                : timing.leadSeconds();
    int n = (int) Math.max(4, Math.min(MAX_WINDOWS, Math.min(d, records.size() / 8)));
    double width = d / n;
    List<List<RequestRecord>> sent = new ArrayList<>();
    long[] tokensEnded = new long[n];
    for (int i = 0; i < n; i++) {
      sent.add(new ArrayList<>());
    }
    for (RequestRecord r : records) {
      double t0 = firstSend.get(RequestOrigin.trialOf(r.origin())) / 1000.0 - lead;
      int at = (int) Math.floor((r.startMs() / 1000.0 - t0) / width);
      if (at >= 0 && at < n) {
        sent.get(at).add(r);
      }
      int end = (int) Math.floor((r.endMs() / 1000.0 - t0) / width);
      if (r.ok() && r.outputTokens() != null && end >= 0 && end < n) {
        tokensEnded[end] += r.outputTokens();
      }
    }
    int trials = firstSend.size();
    List<Window> windows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      windows.add(window(ramp, i, n, width, trials, sent.get(i), tokensEnded[i]));
    }
    return withBreak(ramp, d, lead, windows);
  }

  /**
   * Each trial's first and last send, epoch ms.
   *
   * @param first by trial
   * @param last by trial
   */
  private record TrialSends(Map<Integer, Long> first, Map<Integer, Long> last) {

    static TrialSends of(List<RequestRecord> records) {
      Map<Integer, Long> firstSend = new HashMap<>();
      Map<Integer, Long> lastSend = new HashMap<>();
      for (RequestRecord r : records) {
        int trial = RequestOrigin.trialOf(r.origin());
        firstSend.merge(trial, r.startMs(), Math::min);
        lastSend.merge(trial, r.startMs(), Math::max);
      }
      return new TrialSends(firstSend, lastSend);
    }

    /** The longest time a trial sent for, ms. */
    long longestSpanMs() {
      long span = 0;
      for (var e : first.entrySet()) {
        span = Math.max(span, last.get(e.getKey()) - e.getValue());
      }
      return span;
    }
  }

  /** Window {@code i} of {@code n}: the requests sent in it and the output tokens ended in it. */
  private static Window window(
      Ramp ramp,
      int i,
      int n,
      double width,
      int trials,
      List<RequestRecord> sent,
      long tokensEnded) {
    List<Double> ttft = new ArrayList<>();
    List<Double> tpot = new ArrayList<>();
    int failed = 0;
    for (RequestRecord r : sent) {
      if (r.cancelled()) {
        continue;
      }
      if (!r.ok()) {
        failed++;
        continue;
      }
      if (r.ttftMs() != null) {
        ttft.add(r.ttftMs());
      }
      if (r.tpotMs() != null) {
        tpot.add(r.tpotMs());
      }
    }
    return new Window(
        i * width,
        (i + 1) * width,
        ramp.at((i + 0.5) / n),
        sent.size() / (width * trials),
        tokensEnded / (width * trials),
        sent.size(),
        failed,
        ttft.isEmpty() ? Double.NaN : Percentiles.median(ttft),
        ttft.isEmpty() ? Double.NaN : Percentiles.percentile(ttft, 90),
        tpot.isEmpty() ? Double.NaN : Percentiles.median(tpot));
  }

  /** The windows with the first where latency broke and stayed broken in the next. */
  static RampWindows withBreak(
      Ramp ramp, double durationSeconds, double leadSeconds, List<Window> windows) {
    int start = -1;
    for (int i = 0; i < windows.size(); i++) {
      Window w = windows.get(i);
      if (w.requests() - w.failed() >= MIN_REQUESTS && !Double.isNaN(w.medianTtftMs())) {
        start = i;
        break;
      }
    }
    if (start < 0) {
      return new RampWindows(ramp, durationSeconds, leadSeconds, windows, -1, null);
    }
    Window base = windows.get(start);
    String[] why = new String[windows.size()];
    for (int i = start + 1; i < windows.size(); i++) {
      why[i] = brokeBy(windows.get(i), base);
    }
    for (int i = start + 1; i < windows.size(); i++) {
      boolean nextToo = i + 1 >= windows.size() || why[i + 1] != null;
      if (why[i] != null && nextToo) {
        return new RampWindows(ramp, durationSeconds, leadSeconds, windows, i, why[i]);
      }
    }
    return new RampWindows(ramp, durationSeconds, leadSeconds, windows, -1, null);
  }

  /** What broke in window {@code w} against the start's, or null when it held. */
  private static String brokeBy(Window w, Window base) {
    if (w.requests() > 0 && 100.0 * w.failed() / w.requests() > BREAK_FAILED_PCT) {
      return String.format(Locale.ROOT, "%d of %d requests failed", w.failed(), w.requests());
    }
    if (w.requests() - w.failed() == 0) {
      return null;
    }
    if (w.medianTtftMs() > BREAK_FACTOR * base.medianTtftMs()) {
      return String.format(
          Locale.ROOT,
          "median TTFT %.0f ms, %.1fx the start's %.0f ms",
          w.medianTtftMs(),
          w.medianTtftMs() / base.medianTtftMs(),
          base.medianTtftMs());
    }
    if (w.medianTpotMs() > BREAK_FACTOR * base.medianTpotMs()) {
      return String.format(
          Locale.ROOT,
          "median TPOT %.1f ms, %.1fx the start's %.1f ms",
          w.medianTpotMs(),
          w.medianTpotMs() / base.medianTpotMs(),
          base.medianTpotMs());
    }
    return null;
  }

  /**
   * One line on the ramp: where latency broke (the load, the time, what broke, the last load that
   * held) or that it held to the end.
   */
  public String verdict() {
    if (isEmpty()) {
      return "";
    }
    String unit = ramp.kind().unit();
    if (!broke()) {
      return String.format(
          Locale.ROOT,
          "Ramp %s: latency held to %s %s (median TTFT and TPOT within %.0fx the start's)",
          ramp.describe(),
          Level.plainNumber(round(ramp.at(1))),
          unit,
          BREAK_FACTOR);
    }
    Window w = breakWindow();
    return String.format(
        Locale.ROOT,
        "Ramp %s: latency broke at %s %s, %.0f s in: %s (it held up to %s %s)",
        ramp.describe(),
        Level.plainNumber(round(brokeAtLoad())),
        unit,
        w.fromSeconds(),
        brokeBy,
        Level.plainNumber(round(windows.get(Math.max(0, breakAt - 1)).asked())),
        unit);
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
