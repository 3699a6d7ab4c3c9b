package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.RampWindows;
import java.util.List;
import java.util.Locale;

/**
 * A ramp level over time ({@code levels.r1-8.ramp}): the ramp, its windows and where latency broke.
 *
 * @param shape {@code linear} or {@code exponential}
 * @param load {@code rate} (requests/s) or {@code concurrency} (requests in flight)
 * @param durationS the ramp's length, which a re-done report times it by again
 * @param leadS the time from the ramp's start to its first send, likewise
 * @param brokeAtLoad the load where latency broke, null when it held
 * @param brokeAtS when it broke, from the ramp's start, null when it held
 * @param brokeBy what broke ({@code median TTFT 820 ms, 8.6x the start's 95 ms}), null when it held
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RampFigures(
    String shape,
    String load,
    double from,
    double to,
    double durationS,
    double leadS,
    boolean broke,
    Double brokeAtLoad,
    Double brokeAtS,
    String brokeBy,
    String verdict,
    List<Window> windows) {

  /** One window of the ramp; latencies null where no request completed. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Window(
      double fromS,
      double toS,
      double asked,
      double sentPerS,
      double outputTokensPerS,
      int requests,
      int failed,
      Double medianTtftMs,
      Double p90TtftMs,
      Double medianTpotMs) {}

  /** How the ramp was timed, for a re-done report. */
  public RampWindows.Timing timing() {
    return new RampWindows.Timing(durationS, leadS);
  }

  /** The ramp's figures, or null for a level that is no ramp. */
  static RampFigures of(RampWindows r) {
    if (r.isEmpty()) {
      return null;
    }
    return new RampFigures(
        r.ramp().shape().id(),
        r.ramp().kind().name().toLowerCase(Locale.ROOT),
        r.ramp().from(),
        r.ramp().to(),
        r.durationSeconds(),
        r.leadSeconds(),
        r.broke(),
        r.broke() ? r.brokeAtLoad() : null,
        r.broke() ? r.breakWindow().fromSeconds() : null,
        r.brokeBy(),
        r.verdict(),
        r.windows().stream()
            .map(
                w ->
                    new Window(
                        w.fromSeconds(),
                        w.toSeconds(),
                        w.asked(),
                        w.sentPerSecond(),
                        w.outputTokensPerSecond(),
                        w.requests(),
                        w.failed(),
                        LevelSummary.finite(w.medianTtftMs()),
                        LevelSummary.finite(w.p90TtftMs()),
                        LevelSummary.finite(w.medianTpotMs())))
            .toList());
  }
}
