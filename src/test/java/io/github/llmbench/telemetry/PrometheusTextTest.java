package io.github.llmbench.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.telemetry.PrometheusText.Parsed;
import io.github.llmbench.telemetry.PrometheusText.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

  private static final String QWEN = "Qwen/Qwen2.5-7B-Instruct";

  private static String resource(String name) throws IOException {
    try (InputStream in = PrometheusTextTest.class.getResourceAsStream("/telemetry/" + name)) {
      assertNotNull(in, "no resource /telemetry/" + name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The one sample of that name whose labels include {@code labels} (pairs of name, value). */
  private static Sample only(Parsed parsed, String name, String... labels) {
    List<Sample> found = new ArrayList<>();
    for (Sample s : parsed.samples()) {
      boolean match = s.name().equals(name);
      for (int i = 0; match && i < labels.length; i += 2) {
        match = labels[i + 1].equals(s.labels().get(labels[i]));
      }
      if (match) {
        found.add(s);
      }
    }
    assertEquals(1, found.size(), () -> name + " " + List.of(labels) + ": " + found);
    return found.get(0);
  }

  private static double value(Parsed parsed, String name, String... labels) {
    return only(parsed, name, labels).value();
  }

  private static Map<String, String> map(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  @Test
  void vllmPage() throws IOException {
    Parsed p = PrometheusText.parse(resource("vllm-metrics.txt"));
    assertEquals(0, p.malformedLines());
    assertEquals(86, p.samples().size());
    // prometheus_client's own series come first, with its exponent style (e+010)
    assertEquals(
        new Sample("python_gc_objects_collected_total", map("generation", "0"), 18734.0),
        p.samples().get(0));
    assertEquals(7.812399104e10, value(p, "process_virtual_memory_bytes"), 0.0);
    assertEquals(1048576.0, value(p, "process_max_fds"), 0.0);

    Sample running = only(p, "vllm:num_requests_running");
    assertEquals(3.0, running.value(), 0.0);
    assertEquals(List.of("engine", "model_name"), List.copyOf(running.labels().keySet()));
    assertEquals(QWEN, running.labels().get("model_name"));
    assertEquals(1.0, value(p, "vllm:num_requests_waiting"), 0.0);
    assertEquals(0.4123, value(p, "vllm:kv_cache_usage_perc"), 0.0);

    assertEquals(123456.0, value(p, "vllm:prompt_tokens_total"), 0.0);
    assertEquals(45678.0, value(p, "vllm:generation_tokens_total"), 0.0);
    assertEquals(2.0, value(p, "vllm:num_preemptions_total"), 0.0);
    assertEquals(123000.0, value(p, "vllm:prefix_cache_queries_total"), 0.0);
    assertEquals(98304.0, value(p, "vllm:prefix_cache_hits_total"), 0.0);
    assertEquals(1.7543901234581e9, value(p, "vllm:prompt_tokens_created"), 0.0);
    assertEquals(912.0, value(p, "vllm:request_success_total", "finished_reason", "stop"), 0.0);
    assertEquals(85.0, value(p, "vllm:request_success_total", "finished_reason", "length"), 0.0);
    assertEquals(3.0, value(p, "vllm:request_success_total", "finished_reason", "abort"), 0.0);
    assertEquals(
        List.of("engine", "finished_reason", "model_name"),
        List.copyOf(
            only(p, "vllm:request_success_total", "finished_reason", "stop").labels().keySet()));

    String ttft = "vllm:time_to_first_token_seconds";
    assertEquals(23, p.samples().stream().filter(s -> s.name().equals(ttft + "_bucket")).count());
    assertEquals(41.0, value(p, ttft + "_bucket", "le", "0.04"), 0.0);
    assertEquals(1000.0, value(p, ttft + "_bucket", "le", "+Inf"), 0.0);
    assertEquals(1000.0, value(p, ttft + "_count"), 0.0);
    assertEquals(98.71234501266478, value(p, ttft + "_sum"), 0.0);
    assertEquals(
        map("engine", "0", "le", "2560.0", "model_name", QWEN),
        only(p, ttft + "_bucket", "le", "2560.0").labels());
    String itl = "vllm:inter_token_latency_seconds";
    assertEquals(8123.0, value(p, itl + "_bucket", "le", "0.01"), 0.0);
    assertEquals(44678.0, value(p, itl + "_bucket", "le", "+Inf"), 0.0);
    assertEquals(44678.0, value(p, itl + "_count"), 0.0);
    assertEquals(1167.8912345678011, value(p, itl + "_sum"), 0.0);

    Sample lora = only(p, "vllm:lora_requests_info");
    assertEquals("sql \"v2\" \\ lora", lora.labels().get("running_lora_adapters"));
    assertEquals("", lora.labels().get("waiting_lora_adapters"));
    assertEquals(1.754390456789e9, lora.value(), 0.0);

    Sample cache = only(p, "vllm:cache_config_info");
    assertEquals(17, cache.labels().size());
    assertEquals("16", cache.labels().get("block_size"));
    assertEquals("True", cache.labels().get("enable_prefix_caching"));
    assertEquals("4294967296", cache.labels().get("swap_space_bytes"));
    assertEquals(1.0, cache.value(), 0.0);
  }

  @Test
  void dcgmExporterPage() throws IOException {
    Parsed p = PrometheusText.parse(resource("dcgm-metrics.txt"));
    assertEquals(0, p.malformedLines());
    assertEquals(36, p.samples().size());
    Sample sm0 = only(p, "DCGM_FI_DEV_SM_CLOCK", "gpu", "0");
    assertEquals(1980.0, sm0.value(), 0.0);
    // dcgm-exporter writes ", " between labels: the blank belongs to neither name nor value
    assertEquals(
        map(
            "gpu",
            "0",
            "UUID",
            "GPU-5f3c6a2e-8b1d-4c7e-9a04-2d6e1f7b3c90",
            "pci_bus_id",
            "00000000:18:00.0",
            "device",
            "nvidia0",
            "modelName",
            "NVIDIA H100 80GB HBM3",
            "Hostname",
            "node-1",
            "DCGM_FI_DRIVER_VERSION",
            "550.54.15"),
        sm0.labels());
    assertEquals(
        List.of(
            "gpu",
            "UUID",
            "pci_bus_id",
            "device",
            "modelName",
            "Hostname",
            "DCGM_FI_DRIVER_VERSION"),
        List.copyOf(sm0.labels().keySet()));
    assertEquals(1755.0, value(p, "DCGM_FI_DEV_SM_CLOCK", "gpu", "1"), 0.0);
    assertEquals(
        "GPU-a17e42d9-3c5b-4f80-b6e1-94d2c07a58f3",
        only(p, "DCGM_FI_DEV_SM_CLOCK", "gpu", "1").labels().get("UUID"));
    assertEquals(2619.0, value(p, "DCGM_FI_DEV_MEM_CLOCK", "gpu", "1"), 0.0);
    assertEquals(64.0, value(p, "DCGM_FI_DEV_GPU_TEMP", "gpu", "0"), 0.0);
    assertEquals(612.345, value(p, "DCGM_FI_DEV_POWER_USAGE", "gpu", "0"), 0.0);
    assertEquals(598.12, value(p, "DCGM_FI_DEV_POWER_USAGE", "gpu", "1"), 0.0);
    assertEquals(726451239875.0, value(p, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "gpu", "0"), 0.0);
    assertEquals(97.0, value(p, "DCGM_FI_DEV_GPU_UTIL", "gpu", "0"), 0.0);
    assertEquals(95.0, value(p, "DCGM_FI_DEV_GPU_UTIL", "gpu", "1"), 0.0);
    assertEquals(43.0, value(p, "DCGM_FI_DEV_MEM_COPY_UTIL", "gpu", "0"), 0.0);
    assertEquals(7343.0, value(p, "DCGM_FI_DEV_FB_FREE", "gpu", "0"), 0.0);
    assertEquals(73716.0, value(p, "DCGM_FI_DEV_FB_USED", "gpu", "1"), 0.0);
    assertEquals(0.8123, value(p, "DCGM_FI_PROF_SM_ACTIVE", "gpu", "0"), 0.0);
  }

  /**
   * Captured from llama.cpp's llama-server 0.7.0 (build 11669) after four completions of 8 tokens.
   */
  @Test
  void llamaCppPage() throws IOException {
    Parsed p = PrometheusText.parse(resource("llamacpp-metrics.txt"));
    assertEquals(0, p.malformedLines());
    assertEquals(
        List.of(
            "llamacpp:prompt_tokens_total",
            "llamacpp:prompt_tokens_cached_total",
            "llamacpp:prompt_seconds_total",
            "llamacpp:tokens_predicted_total",
            "llamacpp:tokens_predicted_seconds_total",
            "llamacpp:n_decode_total",
            "llamacpp:n_tokens_max",
            "llamacpp:spec_decode_num_draft_tokens_total",
            "llamacpp:spec_decode_num_accepted_tokens_total",
            "llamacpp:spec_decode_num_drafts_total",
            "llamacpp:prompt_tokens_seconds",
            "llamacpp:predicted_tokens_seconds",
            "llamacpp:requests_processing",
            "llamacpp:requests_deferred",
            "llamacpp:n_busy_slots_per_decode"),
        p.samples().stream().map(Sample::name).toList());
    assertTrue(
        p.samples().stream().allMatch(s -> s.labels().isEmpty()), "llama-server writes no labels");
    for (String counter :
        List.of(
            "llamacpp:prompt_tokens_total",
            "llamacpp:prompt_seconds_total",
            "llamacpp:tokens_predicted_total",
            "llamacpp:tokens_predicted_seconds_total",
            "llamacpp:n_decode_total")) {
      assertTrue(value(p, counter) > 0, counter);
    }
    assertEquals(32.0, value(p, "llamacpp:prompt_tokens_total"), 0.0);
    assertEquals(32.0, value(p, "llamacpp:tokens_predicted_total"), 0.0);
    assertEquals(0.096113, value(p, "llamacpp:tokens_predicted_seconds_total"), 0.0);
    assertEquals(291.324, value(p, "llamacpp:predicted_tokens_seconds"), 0.0);
    // the page ends without a newline: its last line is a sample all the same
    assertEquals(1.0, value(p, "llamacpp:n_busy_slots_per_decode"), 0.0);
  }

  @Test
  void timestampsAreIgnored() {
    Parsed p = PrometheusText.parse("a 1 1712345678901\nb{x=\"y\"} 2.5 1712345678.901\nc 3\n");
    assertEquals(0, p.malformedLines());
    assertEquals(List.of(1.0, 2.5, 3.0), p.samples().stream().map(Sample::value).toList());
  }

  @Test
  void specialValues() {
    Parsed p = PrometheusText.parse("a NaN\nb +Inf\nc -Inf\nd Inf\ne nan\nf -infinity\n");
    assertEquals(0, p.malformedLines());
    assertTrue(Double.isNaN(value(p, "a")));
    assertEquals(Double.POSITIVE_INFINITY, value(p, "b"), 0.0);
    assertEquals(Double.NEGATIVE_INFINITY, value(p, "c"), 0.0);
    assertEquals(Double.POSITIVE_INFINITY, value(p, "d"), 0.0);
    assertTrue(Double.isNaN(value(p, "e")));
    assertEquals(Double.NEGATIVE_INFINITY, value(p, "f"), 0.0);
  }

  @Test
  void exponentsAndHugeIntegers() {
    Parsed p =
        PrometheusText.parse("a 1.5e+010\nb 2E-3\nc -7.0e2\nd 18446744073709551616\ne .5\nf +3\n");
    assertEquals(0, p.malformedLines());
    assertEquals(1.5e10, value(p, "a"), 0.0);
    assertEquals(0.002, value(p, "b"), 0.0);
    assertEquals(-700.0, value(p, "c"), 0.0);
    assertEquals(18446744073709551616.0, value(p, "d"), 0.0);
    assertEquals(0.5, value(p, "e"), 0.0);
    assertEquals(3.0, value(p, "f"), 0.0);
  }

  @Test
  void crlfLineEnds() {
    Parsed p =
        PrometheusText.parse("# HELP a help\r\n# TYPE a gauge\r\na{x=\"1\"} 4\r\n\r\nb 5\r\n");
    assertEquals(0, p.malformedLines());
    assertEquals(
        List.of(new Sample("a", map("x", "1"), 4.0), new Sample("b", Map.of(), 5.0)), p.samples());
  }

  @Test
  void labelSyntax() {
    Parsed p =
        PrometheusText.parse(
            "a{x=\"1\",y=\"2\",} 1\n"
                + "b{} 2\n"
                + "c { x = \"1\" , y=\"2\" } 3\n"
                + "d{x=\"line\\nbreak\",y=\"back\\\\slash\",z=\"\\\"q\\\"\"} 4\n"
                + "e{x=\"tab\\there\"} 5\n"
                + "  f 6\n"
                + "g{x=\"a b,c}=d\"} 7\n");
    assertEquals(0, p.malformedLines());
    assertEquals(map("x", "1", "y", "2"), only(p, "a").labels());
    assertEquals(Map.of(), only(p, "b").labels());
    assertEquals(2.0, value(p, "b"), 0.0);
    assertEquals(map("x", "1", "y", "2"), only(p, "c").labels());
    assertEquals(map("x", "line\nbreak", "y", "back\\slash", "z", "\"q\""), only(p, "d").labels());
    // an unknown escape is kept as written, as Prometheus does
    assertEquals("tab\\there", only(p, "e").labels().get("x"));
    assertEquals(6.0, value(p, "f"), 0.0);
    assertEquals("a b,c}=d", only(p, "g").labels().get("x"));
    assertThrows(UnsupportedOperationException.class, () -> only(p, "a").labels().put("z", "3"));
  }

  @Test
  void openMetricsExemplarsAndEof() {
    Parsed p =
        PrometheusText.parse(
            "# TYPE x histogram\nx_bucket{le=\"0.5\"} 3 # {trace_id=\"abc\"} 0.42 1712345678.1\n"
                + "x_count 3 1712345678.2 # {trace_id=\"def\"} 1\n# EOF\n");
    assertEquals(0, p.malformedLines());
    assertEquals(3.0, value(p, "x_bucket", "le", "0.5"), 0.0);
    assertEquals(3.0, value(p, "x_count"), 0.0);
  }

  @Test
  void malformedLinesAreCountedAndSkipped() {
    String text =
        "good_1 1\n"
            + "unterminated{a=\"b} 2\n"
            + "good_2{a=\"b\"} 2\n"
            + "missing_value{a=\"b\"}\n"
            + "missing_value_too \n"
            + "name{a=unquoted} 1\n"
            + "1bad 2\n"
            + "bad-name 3\n"
            + "bad_number 1.2.3\n"
            + "go_would_refuse 1d\n"
            + "hexadecimal 0x1p3\n"
            + "repeated{a=\"1\",a=\"2\"} 4\n"
            + "too_many 1 2 3\n"
            + "bad_timestamp 1 soon\n"
            + "no_equals{a} 1\n"
            + "no_comma{a=\"1\" b=\"2\"} 1\n"
            + "{a=\"1\"} 1\n"
            + "trailing_backslash{a=\"x\\\n"
            + "good_3 3\n";
    Parsed p = PrometheusText.parse(text);
    assertEquals(16, p.malformedLines());
    assertEquals(
        List.of(
            new Sample("good_1", Map.of(), 1.0),
            new Sample("good_2", map("a", "b"), 2.0),
            new Sample("good_3", Map.of(), 3.0)),
        p.samples());
  }

  @Test
  void emptyAndCommentOnlyPages() {
    assertEquals(new Parsed(List.of(), 0), PrometheusText.parse(""));
    assertEquals(
        new Parsed(List.of(), 0),
        PrometheusText.parse("\n\n# HELP a x\n  # indented comment\n\r\n"));
  }
}
