package io.github.llmbench.analysis;

import io.github.llmbench.records.ServerSample;
import io.github.llmbench.servers.MetricNames;
import io.github.llmbench.servers.ServerProfiles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the server (and its GPUs) said about one level, from the samples of its Prometheus
 * endpoints: over the whole level and over its steady window, with the confound guards. Pure.
 *
 * <p>Names are mapped from each known server's ({@link ServerProfiles}: vLLM's {@code
 * vllm:num_requests_running}, SGLang's {@code sglang:num_running_reqs}, TGI's token counts from the
 * sums of per-request histograms, ...), the first a server reports for each figure; GPU figures
 * come from NVIDIA's DCGM exporter ({@code DCGM_FI_DEV_POWER_USAGE}, ...), averaged over the GPUs.
 * A figure the server does not report is null, never 0. Gauges are averaged (or their maximum
 * taken) over the scrapes inside the window; counters are the difference between the last scrape at
 * or before the window's start and the first at or after its end (the kit scrapes between levels,
 * so a level's counters hold its own traffic). Where several models are served behind one URL, only
 * the samples labelled with the run's {@code model_name} are read; several engines (data-parallel
 * ranks) of one model are added up, except ratios (KV usage), which are averaged. The prefix-cache
 * hit rate is the cached share of the prompt tokens where the server counts cached tokens once per
 * prompt ({@code vllm:prompt_tokens_cached_total}, SGLang's, trtllm-serve's), else vLLM's query and
 * hit counters.
 *
 * @param level the figures over the level (first request's start to last request's end)
 * @param steady the figures over its steady window (empty when the level has none)
 * @param guards one line per confound found (a prefix-cache hit rate, a token mismatch, ...)
 */
public record ServerFigures(
    ServerFigureValues level, ServerFigureValues steady, List<String> guards) {

  /** The server's figures, in the order the reports show them: every family's keys. */
  public static final List<ServerFigure> KEYS = keys();

  private static List<ServerFigure> keys() {
    List<ServerFigure> keys = new ArrayList<>(CommonServerFigures.KEYS);
    keys.addAll(SpeculativeFigures.KEYS);
    keys.addAll(DisaggregatedFigures.KEYS);
    return List.copyOf(keys);
  }

  public static final ServerFigures NONE =
      new ServerFigures(ServerFigureValues.NONE, ServerFigureValues.NONE, List.of());

  /**
   * The level's key for what a perfect prefix cache would serve of the prompts sent ({@link
   * PrefixSharing}), beside the server's {@code prefix_cache_hit_rate}; not a server figure, so not
   * in {@link #KEYS}.
   */
  public static final ServerFigure IDEAL_HIT_RATE =
      new ServerFigure("prefix_cache_hit_rate_ideal", "", "prefix_cache_hit_rate_ideal");

  /** The server figure of that name ({@code summary.json}'s, a gate's {@code server.NAME}). */
  public static Optional<ServerFigure> named(String name) {
    return KEYS.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /** Guard limits (the issue's): a hit rate above 10%, token counts 5% apart, a clock 10% down. */
  static final double HIT_RATE_GUARD = 0.10;

  static final double TOKEN_MISMATCH_GUARD = 0.05;
  static final double CLOCK_DROP_GUARD = 0.10;

  private static final List<String> RUNNING = ServerProfiles.names(MetricNames::running);
  private static final List<String> WAITING = ServerProfiles.names(MetricNames::waiting);

  /** Ratios (0..1): averaged over the engines that report them, never added. */
  private static final List<String> KV_USAGE = ServerProfiles.names(MetricNames::kvCacheUsage);

  private static final List<String> PREEMPTIONS = ServerProfiles.names(MetricNames::preemptions);
  private static final List<String> PREFIX_QUERIES =
      ServerProfiles.names(MetricNames::prefixCacheQueries);
  private static final List<String> PREFIX_HITS =
      ServerProfiles.names(MetricNames::prefixCacheHits);
  private static final List<String> PROMPT_TOKENS = ServerProfiles.names(MetricNames::promptTokens);

  /** Cached prompt tokens counted once, at prefill, and inside the prompt tokens' counter. */
  private static final List<String> CACHED_OF_PROMPT_TOKENS =
      ServerProfiles.names(MetricNames::cachedOfPromptTokens);

  /** llama.cpp counts cached prompt tokens apart from the ones it processed. */
  private static final List<String> CACHED_APART_PROMPT_TOKENS =
      ServerProfiles.names(MetricNames::cachedApartPromptTokens);

  private static final List<String> GENERATION_TOKENS =
      ServerProfiles.names(MetricNames::generationTokens);
  private static final List<String> TTFT = ServerProfiles.names(MetricNames::ttft);
  private static final List<String> ITL = ServerProfiles.names(MetricNames::itl);
  private static final String POWER = "DCGM_FI_DEV_POWER_USAGE";
  private static final String SM_CLOCK = "DCGM_FI_DEV_SM_CLOCK";
  private static final String GPU_UTIL = "DCGM_FI_DEV_GPU_UTIL";

  public ServerFigures {
    guards = List.copyOf(guards);
  }

  /** Whether no endpoint reported anything the kit maps for the level. */
  public boolean isEmpty() {
    return level.noneReported();
  }

  /** The prefix cache's hit rate over the steady window where there is one, else over the level. */
  public Double prefixCacheHitRate() {
    Double inSteady = steady.get(CommonServerFigures.PREFIX_CACHE_HIT_RATE);
    return inSteady != null ? inSteady : level.get(CommonServerFigures.PREFIX_CACHE_HIT_RATE);
  }

  /**
   * The client's measure ({@code m}, over the whole level) of the figures both sides have, under
   * the same names; for the hit rate, what a perfect prefix cache would serve of the prompts sent.
   */
  public ServerFigureValues clientSide(ServingMetrics m) {
    double seconds = m.durationS();
    Map<ServerFigure, Double> f = new HashMap<>();
    Double ideal = level.get(IDEAL_HIT_RATE);
    if (ideal != null) {
      f.put(CommonServerFigures.PREFIX_CACHE_HIT_RATE, ideal);
    }
    f.putAll(
        Map.of(
            CommonServerFigures.GENERATION_TOKENS,
            (double) m.totalOutputTokens(),
            CommonServerFigures.PROMPT_TOKENS,
            (double) m.totalInputTokens(),
            CommonServerFigures.PROMPT_TOKENS_PER_S,
            seconds > 0 ? m.totalInputTokens() / seconds : Double.NaN,
            CommonServerFigures.GENERATION_TOKENS_PER_S,
            m.outputThroughput(),
            CommonServerFigures.TTFT_MEAN_MS,
            m.ttft().mean(),
            CommonServerFigures.ITL_MEAN_MS,
            m.itl().mean()));
    return new ServerFigureValues(f);
  }

  /**
   * @param series the run's samples ({@link Series#of}, indexed once for every level)
   * @param levelName the level's name, for the guards' lines
   * @param startMs the level's first start (epoch ms)
   * @param endMs the level's last end
   * @param steadyStartMs its steady window's start, or 0 when it has none
   * @param clientOutputTokens the output tokens the client received in the level
   */
  public static ServerFigures of(
      Series series,
      String levelName,
      long startMs,
      long endMs,
      long steadyStartMs,
      long steadyEndMs,
      long clientOutputTokens) {
    return of(
        series, levelName, startMs, endMs, steadyStartMs, steadyEndMs, clientOutputTokens, null);
  }

  /**
   * As above, with what a perfect prefix cache would serve of the level's prompts ({@code
   * idealHitRate}, null without prefixes shared on purpose): the hit-rate guards then judge the
   * server's rate against it.
   */
  public static ServerFigures of(
      Series series,
      String levelName,
      long startMs,
      long endMs,
      long steadyStartMs,
      long steadyEndMs,
      long clientOutputTokens,
      Double idealHitRate) {
    if (series.isEmpty()) {
      return NONE;
    }
    Map<ServerFigure, Double> level = window(series, startMs, endMs);
    if (idealHitRate != null) {
      level.put(IDEAL_HIT_RATE, idealHitRate);
    }
    Map<ServerFigure, Double> steady =
        steadyStartMs > 0 && steadyEndMs > steadyStartMs
            ? window(series, steadyStartMs, steadyEndMs)
            : Map.of();
    List<String> guards = new ArrayList<>();
    guards.addAll(
        prefixCacheGuards(
            series, level.get(CommonServerFigures.PREFIX_CACHE_HIT_RATE), idealHitRate, levelName));
    tokenGuard(level.get(CommonServerFigures.GENERATION_TOKENS), clientOutputTokens, levelName)
        .ifPresent(guards::add);
    queueGuard(steady.get(CommonServerFigures.WAITING_MAX), levelName).ifPresent(guards::add);
    preemptionGuard(level.get(CommonServerFigures.PREEMPTIONS), levelName).ifPresent(guards::add);
    clockGuard(series.gpu(SM_CLOCK).subMap(startMs, true, endMs, true), levelName)
        .ifPresent(guards::add);
    return new ServerFigures(new ServerFigureValues(level), new ServerFigureValues(steady), guards);
  }

  /**
   * The prefix cache's guards: a hit rate under half of what a perfect cache would serve of the
   * prompts (caching off, or evicting), and a hit rate high enough that prefill was not measured.
   */
  private static List<String> prefixCacheGuards(
      Series series, Double hit, Double idealHitRate, String levelName) {
    List<String> guards = new ArrayList<>();
    double intended = idealHitRate == null ? 0 : idealHitRate;
    if (hit != null && intended > HIT_RATE_GUARD && hit < intended / 2) {
      guards.add(
          String.format(
              Locale.ROOT,
              "prefix cache served %.0f%% of prompt tokens at %s, a perfect one %.0f%% of these"
                  + " prompts: prefix caching is off (vLLM: --enable-prefix-caching) or the cache"
                  + " evicts the prefixes",
              100 * hit,
              levelName,
              100 * intended));
    }
    if (hit != null && hit > HIT_RATE_GUARD) {
      boolean fromQueries =
          series.gauge(CACHED_OF_PROMPT_TOKENS).isEmpty() && !series.gauge(PREFIX_HITS).isEmpty();
      guards.add(
          String.format(
              Locale.ROOT,
              "prefix cache served %.0f%% of prompt tokens at %s%s: prefill was not measured%s",
              100 * hit,
              levelName,
              intended > 0
                  ? String.format(
                      Locale.ROOT,
                      " (a perfect cache %.0f%% of these prompts, with their shared prefixes)",
                      100 * intended)
                  : "",
              fromQueries
                  ? " (from vllm:prefix_cache_hits/queries, which count a request again each time"
                      + " it waits for KV blocks: with a full KV cache the rate reads high; vLLM's"
                      + " prompt_tokens_cached counts each prompt once)"
                  : ""));
    }
    return guards;
  }

  /** The server generated more or fewer tokens than the client received: other traffic. */
  private static Optional<String> tokenGuard(
      Double generated, long clientOutputTokens, String levelName) {
    if (generated != null
        && clientOutputTokens > 0
        && Math.abs(generated - clientOutputTokens) > TOKEN_MISMATCH_GUARD * clientOutputTokens) {
      return Optional.of(
          String.format(
              Locale.ROOT,
              "the server generated %.0f tokens at %s, the client received %d (%+.0f%%): other traffic on the server, or a second replica",
              generated,
              levelName,
              clientOutputTokens,
              100 * (generated - clientOutputTokens) / clientOutputTokens));
    }
    return Optional.empty();
  }

  /** Requests waited in the server's queue inside the steady window. */
  private static Optional<String> queueGuard(Double steadyWaitingMax, String levelName) {
    if (steadyWaitingMax != null && steadyWaitingMax > 0) {
      return Optional.of(
          String.format(
              Locale.ROOT,
              "requests waited in the server's queue inside the steady window at %s (up to %.0f): the level measures the queue",
              levelName,
              steadyWaitingMax));
    }
    return Optional.empty();
  }

  /** The server preempted requests (KV cache full) and recomputed them. */
  private static Optional<String> preemptionGuard(Double preemptions, String levelName) {
    if (preemptions != null && preemptions > 0) {
      return Optional.of(
          String.format(
              Locale.ROOT,
              "the server preempted %.0f requests at %s (KV cache full): they were recomputed",
              preemptions,
              levelName));
    }
    return Optional.empty();
  }

  /** The GPUs' SM clock (over the level) fell well below its first value: the GPU throttled. */
  private static Optional<String> clockGuard(NavigableMap<Long, Double> clock, String levelName) {
    if (!clock.isEmpty()) {
      double first = clock.firstEntry().getValue();
      double min = clock.values().stream().mapToDouble(Double::doubleValue).min().orElse(first);
      if (first > 0 && min < (1 - CLOCK_DROP_GUARD) * first) {
        return Optional.of(
            String.format(
                Locale.ROOT,
                "GPU SM clock fell %.0f%% below its first value at %s (%.0f -> %.0f MHz): the GPU throttled",
                100 * (first - min) / first,
                levelName,
                first,
                min));
      }
    }
    return Optional.empty();
  }

  private static Map<ServerFigure, Double> window(Series s, long from, long to) {
    Map<ServerFigure, Double> f = new LinkedHashMap<>();
    double seconds = (to - from) / 1000.0;
    putGauge(
        f,
        CommonServerFigures.RUNNING_MEAN,
        CommonServerFigures.RUNNING_MAX,
        s.gauge(RUNNING),
        from,
        to);
    putGauge(
        f,
        CommonServerFigures.WAITING_MEAN,
        CommonServerFigures.WAITING_MAX,
        s.gauge(WAITING),
        from,
        to);
    putGauge(
        f,
        CommonServerFigures.KV_CACHE_USAGE_MEAN,
        CommonServerFigures.KV_CACHE_USAGE_MAX,
        s.ratio(KV_USAGE),
        from,
        to);
    f.put(CommonServerFigures.PREEMPTIONS, delta(s.gauge(PREEMPTIONS), from, to));
    PromptTokens promptTokens = PromptTokens.of(s, from, to);
    f.put(CommonServerFigures.PREFIX_CACHE_HIT_RATE, promptTokens.cacheHitRate());
    Double prompt = promptTokens.taken();
    Double generated = delta(s.gauge(GENERATION_TOKENS), from, to);
    f.put(CommonServerFigures.PROMPT_TOKENS, prompt);
    f.put(CommonServerFigures.GENERATION_TOKENS, generated);
    f.put(
        CommonServerFigures.PROMPT_TOKENS_PER_S,
        prompt == null || seconds <= 0 ? null : prompt / seconds);
    f.put(
        CommonServerFigures.GENERATION_TOKENS_PER_S,
        generated == null || seconds <= 0 ? null : generated / seconds);
    f.put(CommonServerFigures.TTFT_MEAN_MS, histogramMeanMs(s, TTFT, from, to));
    f.put(CommonServerFigures.ITL_MEAN_MS, histogramMeanMs(s, ITL, from, to));
    f.put(CommonServerFigures.GPU_POWER_W_MEAN, mean(s.gpu(POWER), from, to));
    f.put(CommonServerFigures.GPU_SM_CLOCK_MHZ_MEAN, mean(s.gpu(SM_CLOCK), from, to));
    f.put(CommonServerFigures.GPU_UTIL_MEAN, mean(s.gpu(GPU_UTIL), from, to));
    SpeculativeFigures.put(f, s, from, to);
    DisaggregatedFigures.put(f, s, from, to);
    return f;
  }

  /**
   * The prompt tokens the server took in over a window and the prefix cache's share of them.
   *
   * @param taken every prompt token the server took in (cached ones included, as vLLM's counter and
   *     the client count them), or null when it does not count them
   * @param cacheHitRate the prefix cache's hit rate: the cached share of the prompt tokens where
   *     the server counts those, else vLLM's hits over its queries; null when not reported
   */
  private record PromptTokens(Double taken, Double cacheHitRate) {

    static PromptTokens of(Series s, long from, long to) {
      Double queries = delta(s.gauge(PREFIX_QUERIES), from, to);
      Double hits = delta(s.gauge(PREFIX_HITS), from, to);
      Double prompt = delta(s.gauge(PROMPT_TOKENS), from, to);
      Double cachedOfPrompt = delta(s.gauge(CACHED_OF_PROMPT_TOKENS), from, to);
      Double cached = delta(s.gauge(CACHED_APART_PROMPT_TOKENS), from, to);
      Double hitRate = null;
      if (cachedOfPrompt != null && prompt != null && prompt > 0) {
        hitRate = cachedOfPrompt / prompt;
      } else if (queries != null && hits != null && queries > 0) {
        hitRate = hits / queries;
      } else if (cached != null && prompt != null && prompt + cached > 0) {
        // llama.cpp counts cached prompt tokens apart from processed ones
        hitRate = cached / (prompt + cached);
      }
      if (prompt != null && cached != null) {
        prompt +=
            cached; // every prompt token taken in, as vLLM's counter and the client count them
      }
      return new PromptTokens(prompt, hitRate);
    }
  }

  /** A gauge's mean and maximum over the scrapes inside the window, null without any. */
  private static void putGauge(
      Map<ServerFigure, Double> f,
      ServerFigure meanKey,
      ServerFigure maxKey,
      NavigableMap<Long, Double> g,
      long from,
      long to) {
    NavigableMap<Long, Double> in = g.subMap(from, true, to, true);
    f.put(meanKey, mean(g, from, to));
    f.put(
        maxKey,
        in.isEmpty()
            ? null
            : in.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
  }

  /** A gauge's mean over the scrapes inside the window, null without any. */
  static Double mean(NavigableMap<Long, Double> g, long from, long to) {
    NavigableMap<Long, Double> in = g.subMap(from, true, to, true);
    return in.isEmpty()
        ? null
        : in.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  /**
   * A counter's growth over the window, scrape by scrape; null without a scrape on each side. A
   * drop is a reset (a restarted server: an A/B run's fresh deployments), after which the counter
   * counts from 0, as Prometheus' {@code increase()} reads it. Where several servers' counters are
   * summed per scrape, a drop counts all of them from 0: exact when they restart together.
   */
  static Double delta(NavigableMap<Long, Double> counter, long from, long to) {
    if (counter.isEmpty()) {
      return null;
    }
    Map.Entry<Long, Double> base = counter.floorEntry(from);
    if (base == null) {
      base = counter.ceilingEntry(from);
    }
    Map.Entry<Long, Double> end = counter.ceilingEntry(to);
    if (end == null) {
      end = counter.floorEntry(to);
    }
    if (base == null || end == null || end.getKey() <= base.getKey()) {
      return null;
    }
    double growth = 0;
    double before = base.getValue();
    for (double v : counter.subMap(base.getKey(), false, end.getKey(), true).values()) {
      growth += v >= before ? v - before : v;
      before = v;
    }
    return growth;
  }

  private static Double histogramMeanMs(Series s, List<String> families, long from, long to) {
    for (String family : families) {
      Double sum = delta(s.gauge(List.of(family + "_sum")), from, to);
      Double count = delta(s.gauge(List.of(family + "_count")), from, to);
      if (sum != null && count != null) {
        return count > 0 ? 1000 * sum / count : null;
      }
    }
    return null;
  }

  /**
   * The server's gauges over time, for charts: {@code running}, {@code waiting}, {@code
   * kv_cache_usage} (0..1), {@code gpu_power_w}, {@code gpu_sm_clock_mhz} (per GPU), each [[epoch
   * ms, value]] in time order; a gauge the server does not report is left out.
   */
  public static Map<String, List<double[]>> timeline(Series s) {
    Map<String, List<double[]>> out = new LinkedHashMap<>();
    putSeries(out, "running", s.gauge(RUNNING));
    putSeries(out, "waiting", s.gauge(WAITING));
    putSeries(out, "kv_cache_usage", s.ratio(KV_USAGE));
    putSeries(out, "gpu_power_w", s.gpu(POWER));
    putSeries(out, "gpu_sm_clock_mhz", s.gpu(SM_CLOCK));
    return out;
  }

  private static void putSeries(
      Map<String, List<double[]>> out, String name, NavigableMap<Long, Double> g) {
    if (!g.isEmpty()) {
      List<double[]> points = new ArrayList<>(g.size());
      g.forEach((t, v) -> points.add(new double[] {t, v}));
      out.put(name, points);
    }
  }

  /**
   * A run's samples by name, indexed once: where several models are served behind one URL, only the
   * run's model's; each figure then reads one value per scrape.
   */
  public static final class Series {
    public static final Series NONE = new Series(List.of(), null);

    private final Map<String, List<ServerSample>> byName = new LinkedHashMap<>();

    public static Series of(List<ServerSample> samples, String model) {
      return samples.isEmpty() ? NONE : new Series(samples, model);
    }

    public boolean isEmpty() {
      return byName.isEmpty();
    }

    private Series(List<ServerSample> samples, String model) {
      boolean modelLabelled =
          model != null
              && samples.stream().anyMatch(x -> model.equals(x.labels().get("model_name")));
      boolean measuredGpus = samples.stream().anyMatch(Series::measuredGpu);
      for (ServerSample x : samples) {
        String m = x.labels().get("model_name");
        if (modelLabelled && m != null && !m.equals(model)) {
          continue; // another model behind the same URL
        }
        if (measuredGpus
            && x.name().startsWith(DCGM)
            && SIMULATED.equals(x.labels().get("simulated"))) {
          continue; // a real exporter's readings replace the simulator's stand-in
        }
        byName.computeIfAbsent(x.name(), n -> new ArrayList<>()).add(x);
      }
    }

    /**
     * The first of {@code names} the server reports, each scrape's values added up (engines, label
     * sets).
     */
    NavigableMap<Long, Double> gauge(List<String> names) {
      for (String n : names) {
        List<ServerSample> xs = byName.get(n);
        if (xs != null) {
          NavigableMap<Long, Double> out = new TreeMap<>();
          for (ServerSample x : xs) {
            out.merge(x.timeMs(), x.value(), Double::sum);
          }
          return out;
        }
      }
      return new TreeMap<>();
    }

    /**
     * The first of {@code names} the server reports, each scrape's values averaged (a ratio per
     * engine: data-parallel ranks each report their own KV usage, whose sum can read above 1).
     */
    NavigableMap<Long, Double> ratio(List<String> names) {
      for (String n : names) {
        if (byName.containsKey(n)) {
          return gpu(n);
        }
      }
      return new TreeMap<>();
    }

    private static final String DCGM = "DCGM_FI_";
    private static final String SIMULATED = "true";

    /** A DCGM exporter's reading of a GPU, not the kit's simulator's stand-in. */
    private static boolean measuredGpu(ServerSample x) {
      return x.name().startsWith(DCGM) && !SIMULATED.equals(x.labels().get("simulated"));
    }

    /** How many label sets (GPUs, engines) one scrape of {@code name} has at most. */
    int labelSets(String name) {
      Map<Long, Integer> perScrape = new HashMap<>();
      for (ServerSample x : byName.getOrDefault(name, List.of())) {
        perScrape.merge(x.timeMs(), 1, Integer::sum);
      }
      return perScrape.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** Whether any sample of {@code name} carries {@code label="value"}. */
    boolean labelled(String name, String label, String value) {
      return byName.getOrDefault(name, List.of()).stream()
          .anyMatch(x -> value.equals(x.labels().get(label)));
    }

    /** A DCGM field, each scrape's values averaged over the GPUs. */
    NavigableMap<Long, Double> gpu(String name) {
      List<ServerSample> xs = byName.getOrDefault(name, List.of());
      NavigableMap<Long, double[]> acc = new TreeMap<>();
      for (ServerSample x : xs) {
        double[] a = acc.computeIfAbsent(x.timeMs(), t -> new double[2]);
        a[0] += x.value();
        a[1]++;
      }
      NavigableMap<Long, Double> out = new TreeMap<>();
      acc.forEach((t, a) -> out.put(t, a[0] / a[1]));
      return out;
    }
  }
}
