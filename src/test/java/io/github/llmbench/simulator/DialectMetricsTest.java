package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.servers.MetricNames;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Each dialect serves, under its server's names, every figure its profile maps, so the kit reads
 * what the simulator serves (llama.cpp's dialect serves vLLM's metrics, so it is left out).
 */
class DialectMetricsTest {

  private static final List<Function<MetricNames, List<String>>> SAMPLES =
      List.of(
          MetricNames::running,
          MetricNames::waiting,
          MetricNames::kvCacheUsage,
          MetricNames::preemptions,
          MetricNames::prefixCacheQueries,
          MetricNames::prefixCacheHits,
          MetricNames::promptTokens,
          MetricNames::cachedOfPromptTokens,
          MetricNames::generationTokens);

  private static final List<Function<MetricNames, List<String>>> HISTOGRAMS =
      List.of(MetricNames::ttft, MetricNames::itl);

  private static Set<String> served(Dialect d) {
    Set<String> names = new HashSet<>();
    for (String line : d.answers().prometheus(new SimMetrics(), "m").split("\n")) {
      if (!line.startsWith("#") && !line.isEmpty()) {
        names.add(line.split("[{ ]", 2)[0]);
      }
    }
    return names;
  }

  @Test
  void everyDialectServesTheFirstNameOfEachFigureItsProfileMaps() {
    for (Dialect d : Dialect.values()) {
      if (d == Dialect.LLAMACPP) {
        continue;
      }
      Set<String> served = served(d);
      MetricNames m = d.profile().metrics();
      for (Function<MetricNames, List<String>> figure : SAMPLES) {
        figure.apply(m).stream()
            .findFirst()
            .ifPresent(n -> assertTrue(served.contains(n), d.id() + " serves " + n));
      }
      for (Function<MetricNames, List<String>> figure : HISTOGRAMS) {
        figure.apply(m).stream()
            .findFirst()
            .ifPresent(
                n -> assertTrue(served.contains(n + "_sum"), d.id() + " serves " + n + "_sum"));
      }
    }
  }

  @Test
  void llamaCppsDialectServesVllmsNames() {
    assertTrue(served(Dialect.LLAMACPP).contains("vllm:num_requests_running"));
  }
}
