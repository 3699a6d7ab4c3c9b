package io.github.llmbench.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The registered profiles: which server answers, and the names and forms read across them. */
class ServerProfilesTest {

  private static final Supplier<Optional<JsonNode>> NO_INFO = Optional::empty;

  @Test
  void theServerHeaderComesBeforeTheModelCards() {
    assertEquals(
        ServerProfiles.LLAMACPP,
        ServerProfiles.recognise(Optional.of("llama.cpp/b1234"), List.of("vllm"), NO_INFO));
  }

  @Test
  void theFirstCardThatNamesAServerNamesIt() {
    List<String> owners = new ArrayList<>();
    owners.add(null);
    owners.add("someone");
    owners.add("SGLang");
    owners.add("vllm");
    assertEquals(
        ServerProfiles.SGLANG, ServerProfiles.recognise(Optional.empty(), owners, NO_INFO));
    assertEquals(
        ServerProfiles.TRTLLM,
        ServerProfiles.recognise(Optional.empty(), List.of("tensorrt_llm"), NO_INFO));
  }

  @Test
  void infoIsAskedOnlyWhenNothingElseTellsAndNeedsItsContextKey() {
    int[] asked = {0};
    Supplier<Optional<JsonNode>> info =
        () -> {
          asked[0]++;
          return Optional.of(JsonNodeFactory.instance.objectNode().put("max_total_tokens", 4096));
        };
    assertEquals(
        ServerProfiles.VLLM, ServerProfiles.recognise(Optional.empty(), List.of("vllm"), info));
    assertEquals(0, asked[0]);
    assertEquals(
        ServerProfiles.TGI, ServerProfiles.recognise(Optional.empty(), List.of("m"), info));
    Supplier<Optional<JsonNode>> other =
        () -> Optional.of(JsonNodeFactory.instance.objectNode().put("version", "1"));
    assertEquals(
        ServerProfiles.OTHER, ServerProfiles.recognise(Optional.empty(), List.of(), other));
  }

  @Test
  void aFigureReadsEachServersNamesInTheRegisteredOrder() {
    assertEquals(
        List.of(
            "vllm:num_requests_running",
            "sglang:num_running_reqs",
            "trtllm_num_requests_running",
            "llamacpp:requests_processing",
            "tgi_batch_current_size"),
        ServerProfiles.names(MetricNames::running));
    assertEquals(
        List.of(
            "vllm:kv_cache_usage_perc",
            "vllm:gpu_cache_usage_perc",
            "sglang:token_usage",
            "trtllm_kv_cache_utilization",
            "llamacpp:kv_cache_usage_ratio"),
        ServerProfiles.names(MetricNames::kvCacheUsage));
  }

  @Test
  void everyNameOfAServerIsInItsFamily() {
    for (ServerProfile p : ServerProfiles.ALL) {
      MetricNames m = p.metrics();
      List<List<String>> figures =
          List.of(
              m.running(),
              m.waiting(),
              m.kvCacheUsage(),
              m.preemptions(),
              m.prefixCacheQueries(),
              m.prefixCacheHits(),
              m.promptTokens(),
              m.cachedOfPromptTokens(),
              m.cachedApartPromptTokens(),
              m.generationTokens(),
              m.ttft(),
              m.itl());
      for (List<String> names : figures) {
        for (String n : names) {
          assertFalse(m.family().isEmpty(), p.id() + ": " + n);
          assertTrue(n.startsWith(m.family()), p.id() + ": " + n);
        }
      }
    }
  }

  @Test
  void theFormsAndPathsToTryAreEachServersOnce() {
    assertEquals(
        List.of("vLLM", "llama.cpp", "TGI"),
        ServerProfiles.tokenizerForms().stream().map(TokenizerForm::label).toList());
    assertEquals(List.of("/metrics", "/prometheus/metrics"), ServerProfiles.metricsPaths());
    assertEquals(
        List.of("vllm:", "sglang:", "trtllm_", "llamacpp:", "tgi_"),
        ServerProfiles.metricFamilies());
  }

  @Test
  void eachProfileIsFoundByItsIdAndTheOutputLengthKeyFollowsIt() {
    for (ServerProfile p : ServerProfiles.ALL) {
      assertEquals(p, ServerProfiles.byId(p.id()));
      assertEquals("max_tokens", p.maxTokensKey(false), p.id());
    }
    assertEquals("max_completion_tokens", ServerProfiles.VLLM.maxTokensKey(true));
    assertEquals("max_tokens", ServerProfiles.LLAMACPP.maxTokensKey(true));
    assertEquals("max_tokens", ServerProfiles.OTHER.maxTokensKey(true));
    assertFalse(ServerProfiles.TGI.honoursIgnoreEos());
    assertEquals(Optional.of("/flush_cache"), ServerProfiles.SGLANG.prefixCacheReset());
  }
}
