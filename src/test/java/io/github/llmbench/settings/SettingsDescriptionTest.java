package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsDescriptionTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static Map<String, String> describe(Map<String, String> props) {
    return SettingsDescription.of(read(props));
  }

  @Test
  void aTraceSetsTheLoad() {
    Map<String, String> trace =
        describe(Map.of("dataset", "trace:/data/mooncake.jsonl", "trace.speed", "2"));
    assertFalse(trace.containsKey("conc"), "the trace sets the load: " + trace);
  }

  @Test
  void aShardedInjectorSaysItRunsItsShare() {
    assertTrue(
        describe(Map.of("injector", "1/2", "seed", "7", "conc", "8"))
            .get("injector")
            .startsWith("1/2 (this process runs its share"));
  }

  @Test
  void anEmbeddingsRunHasNoOutputLength() {
    assertFalse(describe(Map.of("api", "embeddings")).containsKey("output.len"));
    assertEquals("128", describe(Map.of()).get("output.len"));
  }

  @Test
  void theDefaultGatlingRecordsAreNotWorthALine() {
    assertFalse(describe(Map.of()).containsKey("stats.records"), "the default is not worth a line");
  }

  @Test
  void theSimulatorDialectOnlyWhenNotTheDefault() {
    assertEquals("llamacpp", describe(Map.of("sim.dialect", "llamacpp")).get("sim.dialect"));
    assertFalse(describe(Map.of()).containsKey("sim.dialect"));
  }

  /** Every -Dsim.* set: the simulator's lines, each in its place, as they were before its table. */
  @Test
  void theSimulatorsLinesAreAsBefore() {
    Map<String, String> props = new HashMap<>();
    props.put("seed", "7");
    props.put("sim.model", "sim-tiny");
    props.put("sim.gpu", "rtx4090");
    props.put("sim.tp", "2");
    props.put("sim.max_num_seqs", "64");
    props.put("sim.max_num_batched_tokens", "4096");
    props.put("sim.gpu_memory_utilization", "0.8");
    props.put("sim.faults", "429:0.1,cut:0.05");
    props.put("sim.noise", "0.1");
    props.put("sim.slowdown", "1.5");
    props.put("sim.tokens.per.chunk", "4");
    props.put("sim.reasoning", "12");
    props.put("sim.speculative", "3:0.7");
    props.put("sim.kv.transfer", "25");
    props.put("sim.dialect", "sglang");
    props.put("sim.lora", "sql,chat");
    List<String> lines = new ArrayList<>();
    describe(props)
        .forEach(
            (k, v) -> {
              if (k.startsWith("sim.")) {
                lines.add(k + " = " + v);
              }
            });
    assertEquals(
        List.of(
            "sim.model = sim-tiny",
            "sim.gpu = rtx4090",
            "sim.dialect = sglang",
            "sim.engine = tp 2, max_num_seqs 64, max_num_batched_tokens 4096,"
                + " gpu_memory_utilization 0.8",
            "sim.faults = 429:0.1,cut:0.05",
            "sim.noise = 0.1 (each step x a lognormal jitter of this CV x a drift of CV 0.05 over"
                + " ~5 s; from seed 7)",
            "sim.slowdown = 1.5 (every engine step this many times as long)",
            "sim.tokens.per.chunk = 4 (tokens in each stream chunk)",
            "sim.speculative = 3:0.7 (drafts per decode step : each one's chance to be kept)",
            "sim.kv.transfer = 25 GB/s (disaggregated: the KV link between prefill and decode)",
            "sim.reasoning = 12 (thinking tokens before each chat answer)"),
        lines);
    assertEquals(
        Map.of(
            "sim.model",
            "qwen2.5-7b-instruct",
            "sim.gpu",
            "rtx4080-32gb",
            "sim.engine",
            "tp 1, max_num_seqs 256, max_num_batched_tokens 2048, gpu_memory_utilization 0.9"),
        Map.copyOf(
            describe(Map.of("sim.faults", "NONE", "sim.speculative", "none", "sim.noise", "-0"))
                .entrySet()
                .stream()
                .filter(e -> e.getKey().startsWith("sim."))
                .collect(java.util.stream.Collectors.toMap(e -> e.getKey(), e -> e.getValue()))),
        "defaults, in any case, have no line");
  }

  @Test
  void theApiKeyIsNeverDescribed() {
    BenchSettings s =
        BenchSettings.from(
            Map.<String, String>of(), Map.of("OPENAI_API_KEY", "sk-secret-123")::get);
    assertFalse(SettingsDescription.of(s).toString().contains("sk-secret-123"));
    assertEquals("set (not shown)", SettingsDescription.of(s).get("OPENAI_API_KEY"));
  }

  @Test
  void headersAreOnlySetAndTheExtraBodySaysWhatItReplaces() {
    Map<String, String> shown =
        describe(
            Map.of(
                "extra.body",
                "{\"temperature\":0.6,\"max_tokens\":64}",
                "header.X-Route",
                "pool-a",
                "header.Authorization",
                "Bearer sk-hidden"));
    assertEquals("<set>", shown.get("header.X-Route"));
    assertEquals("<set>", shown.get("header.Authorization"));
    assertFalse(
        shown.toString().contains("sk-hidden") || shown.toString().contains("pool-a"),
        shown.toString());
    assertTrue(
        shown.get("extra.body").contains("replaces the kit's max_tokens"), shown.get("extra.body"));
  }

  // the lines are printed and kept in summary.json in this order: a run's settings read the same
  @Test
  void theLinesComeInTheirGroupsOrder() {
    Map<String, String> props = new HashMap<>();
    props.put("ladder", "4,8");
    props.put("trials", "2");
    props.put("warmup.prompts", "4");
    props.put("prompts", "40");
    props.put("images", "2");
    props.put("input.stdev", "20");
    props.put("prefix.len", "100");
    props.put("prefix.groups", "3");
    props.put("cache.reset", "true");
    props.put("extra.body", "{\"temperature\":0.6}");
    props.put("header.X-Route", "p");
    props.put("stats.records", "all");
    props.put("percentiles", "50,99");
    props.put("sim.noise", "0.2");
    props.put("sim.slowdown", "2");
    assertEquals(
        List.of(
            "base.url",
            "api",
            "model",
            "ladder",
            "prompts",
            "trials",
            "warmup",
            "dataset",
            "input.len",
            "output.len",
            "input lengths",
            "images",
            "prefix.len",
            "prefix.groups",
            "seed",
            "timeout",
            "cache.reset",
            "extra.body",
            "header.X-Route",
            "stats.records",
            "percentiles",
            "gates",
            "sim.model",
            "sim.gpu",
            "sim.engine",
            "sim.noise",
            "sim.slowdown",
            "OPENAI_API_KEY"),
        List.copyOf(SettingsDescription.of(read(props), Optional.of("ttft.p99<500")).keySet()));
  }

  @Test
  void aTraceOnAServerHasItsOwnLinesInOrder() {
    assertEquals(
        List.of(
            "base.url",
            "api",
            "model",
            "prompts",
            "dataset",
            "trace.speed",
            "seed",
            "timeout",
            "ready.timeout",
            "OPENAI_API_KEY"),
        List.copyOf(
            describe(
                    Map.of(
                        "dataset",
                        "trace:/x.jsonl",
                        "prompts",
                        "50",
                        "base.url",
                        "http://a:8000",
                        "ready.timeout",
                        "30"))
                .keySet()));
  }
}
