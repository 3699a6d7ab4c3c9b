package io.github.llmbench.analysis;

import java.util.List;

/**
 * The figures every server family's metrics give ({@link ServerFigures#of}: its scheduler's queue,
 * its KV cache, its token counters, its latency histograms), and the GPUs' DCGM readings. Their
 * label is their name: the server table shows them by name, as the gates name them.
 */
public final class CommonServerFigures {
  public static final ServerFigure RUNNING_MEAN = key("running_mean", "");
  public static final ServerFigure RUNNING_MAX = key("running_max", "");
  public static final ServerFigure WAITING_MEAN = key("waiting_mean", "");
  public static final ServerFigure WAITING_MAX = key("waiting_max", "");
  public static final ServerFigure KV_CACHE_USAGE_MEAN = key("kv_cache_usage_mean", "");
  public static final ServerFigure KV_CACHE_USAGE_MAX = key("kv_cache_usage_max", "");
  public static final ServerFigure PREEMPTIONS = key("preemptions", "");
  public static final ServerFigure PREFIX_CACHE_HIT_RATE = key("prefix_cache_hit_rate", "");
  public static final ServerFigure PROMPT_TOKENS = key("prompt_tokens", "");
  public static final ServerFigure GENERATION_TOKENS = key("generation_tokens", "");
  public static final ServerFigure PROMPT_TOKENS_PER_S = key("prompt_tokens_per_s", "tok/s");
  public static final ServerFigure GENERATION_TOKENS_PER_S =
      key("generation_tokens_per_s", "tok/s");
  public static final ServerFigure TTFT_MEAN_MS = key("ttft_mean_ms", "ms");
  public static final ServerFigure ITL_MEAN_MS = key("itl_mean_ms", "ms");
  public static final ServerFigure GPU_POWER_W_MEAN = key("gpu_power_w_mean", "W");
  public static final ServerFigure GPU_SM_CLOCK_MHZ_MEAN = key("gpu_sm_clock_mhz_mean", "MHz");
  public static final ServerFigure GPU_UTIL_MEAN = key("gpu_util_mean", "");

  /** The family's figures, in the order the reports show them. */
  public static final List<ServerFigure> KEYS =
      List.of(
          RUNNING_MEAN,
          RUNNING_MAX,
          WAITING_MEAN,
          WAITING_MAX,
          KV_CACHE_USAGE_MEAN,
          KV_CACHE_USAGE_MAX,
          PREEMPTIONS,
          PREFIX_CACHE_HIT_RATE,
          PROMPT_TOKENS,
          GENERATION_TOKENS,
          PROMPT_TOKENS_PER_S,
          GENERATION_TOKENS_PER_S,
          TTFT_MEAN_MS,
          ITL_MEAN_MS,
          GPU_POWER_W_MEAN,
          GPU_SM_CLOCK_MHZ_MEAN,
          GPU_UTIL_MEAN);

  private CommonServerFigures() {}

  private static ServerFigure key(String name, String unit) {
    return new ServerFigure(name, unit, name);
  }
}
