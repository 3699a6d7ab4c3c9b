package io.github.llmbench.analysis;

import io.github.llmbench.servers.MetricNames;
import io.github.llmbench.servers.ServerProfiles;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Disaggregated serving's figures of a window, from the server's metrics ({@link
 * MetricNames.Disaggregated}, in each server's units): KV transfers between the prefill and the
 * decode instances (how many, their mean time, the MB moved, the rate, the failures) and the
 * requests' mean prefill and decode times. Histograms are read by the growth of their {@code _sum}
 * and {@code _count}; SGLang's older gauges by their mean. Each is null where the server reports
 * nothing of it. Pure.
 */
public final class DisaggregatedFigures {

  public static final ServerFigure PREFILL_MS_MEAN =
      new ServerFigure("prefill_ms_mean", "ms", "Mean prefill (ms)");
  public static final ServerFigure DECODE_MS_MEAN =
      new ServerFigure("decode_ms_mean", "ms", "Mean decode (ms)");
  public static final ServerFigure TRANSFERS = new ServerFigure("kv_transfers", "", "KV transfers");
  public static final ServerFigure TRANSFER_MS_MEAN =
      new ServerFigure("kv_transfer_ms_mean", "ms", "Mean transfer (ms)");
  public static final ServerFigure TRANSFER_MB =
      new ServerFigure("kv_transfer_mb", "MB", "MB moved");
  public static final ServerFigure TRANSFER_GB_PER_S =
      new ServerFigure("kv_transfer_gb_per_s", "GB/s", "GB/s");
  public static final ServerFigure TRANSFER_FAILURES =
      new ServerFigure("kv_transfer_failures", "", "Failed");

  /**
   * The family's figures among the server's ({@link ServerFigures#KEYS}), in the reports' order.
   */
  public static final List<ServerFigure> KEYS =
      List.of(
          PREFILL_MS_MEAN,
          DECODE_MS_MEAN,
          TRANSFERS,
          TRANSFER_MS_MEAN,
          TRANSFER_MB,
          TRANSFER_GB_PER_S,
          TRANSFER_FAILURES);

  private static final List<String> TRANSFER_S = names(MetricNames.Disaggregated::transferSeconds);
  private static final List<String> TRANSFER_MS = names(MetricNames.Disaggregated::transferMillis);
  private static final List<String> BYTES = names(MetricNames.Disaggregated::transferBytes);
  private static final List<String> MEGABYTES = names(MetricNames.Disaggregated::transferMegabytes);
  private static final List<String> FAILURES = names(MetricNames.Disaggregated::transferFailures);
  private static final List<String> PREFILL_S = names(MetricNames.Disaggregated::prefillSeconds);
  private static final List<String> DECODE_S = names(MetricNames.Disaggregated::decodeSeconds);

  private DisaggregatedFigures() {}

  private static List<String> names(Function<MetricNames.Disaggregated, List<String>> of) {
    return ServerProfiles.names(m -> of.apply(m.disaggregated()));
  }

  /** A histogram's growth over a window: its observations' sum and count. */
  private record Growth(double sum, double count) {
    double mean() {
      return sum / count;
    }
  }

  /** The first of {@code families} with a {@code _sum} and {@code _count}, grown in the window. */
  private static Growth growth(ServerFigures.Series s, List<String> families, long from, long to) {
    for (String family : families) {
      Double sum = ServerFigures.delta(s.gauge(List.of(family + "_sum")), from, to);
      Double count = ServerFigures.delta(s.gauge(List.of(family + "_count")), from, to);
      if (sum != null && count != null) {
        return new Growth(sum, count);
      }
    }
    return null;
  }

  /** Puts the window's figures into {@code f}. */
  static void put(Map<ServerFigure, Double> f, ServerFigures.Series s, long from, long to) {
    Growth prefill = growth(s, PREFILL_S, from, to);
    Growth decode = growth(s, DECODE_S, from, to);
    f.put(PREFILL_MS_MEAN, prefill == null || prefill.count() == 0 ? null : 1000 * prefill.mean());
    f.put(DECODE_MS_MEAN, decode == null || decode.count() == 0 ? null : 1000 * decode.mean());
    Growth seconds = growth(s, TRANSFER_S, from, to);
    Growth millis = growth(s, TRANSFER_MS, from, to);
    Double transferSeconds =
        seconds != null ? (Double) seconds.sum() : millis != null ? millis.sum() / 1000 : null;
    Double transfers =
        seconds != null ? (Double) seconds.count() : millis != null ? millis.count() : null;
    f.put(TRANSFERS, transfers);
    f.put(
        TRANSFER_MS_MEAN,
        transfers != null && transfers > 0
            ? Double.valueOf(1000 * transferSeconds / transfers)
            : ServerFigures.mean(s.ratio(TRANSFER_MS), from, to));
    Growth bytes = growth(s, BYTES, from, to);
    Growth megabytes = growth(s, MEGABYTES, from, to);
    Double mb =
        bytes != null ? (Double) (bytes.sum() / 1e6) : megabytes != null ? megabytes.sum() : null;
    f.put(TRANSFER_MB, mb);
    f.put(
        TRANSFER_GB_PER_S,
        mb != null && transferSeconds != null && transferSeconds > 0
            ? mb / 1000 / transferSeconds
            : null);
    f.put(TRANSFER_FAILURES, ServerFigures.delta(s.gauge(FAILURES), from, to));
  }
}
