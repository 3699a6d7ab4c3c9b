package io.github.llmbench.records;

import java.util.Map;

/**
 * One value a server (or a GPU exporter) reported on its Prometheus endpoint during the run, as
 * written to {@code llm/server-metrics.jsonl}: {@code {"time_ms":..,"endpoint":..,"name":..,
 * "labels":{..},"value":..}}.
 *
 * @param timeMs when the scrape that read it was answered (epoch ms)
 * @param endpoint the URL scraped
 * @param name the sample's name as written, e.g. {@code vllm:prompt_tokens_total}
 * @param labels its labels
 */
public record ServerSample(
    long timeMs, String endpoint, String name, Map<String, String> labels, double value) {
  public ServerSample {
    labels = Map.copyOf(labels);
  }
}
