package io.github.llmbench.endpoints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointsTest {

  @Test
  void anIdFindsItsEndpointInAnyCase() {
    assertEquals(Endpoints.RESPONSES, Endpoints.byId("Responses").orElseThrow());
    assertTrue(Endpoints.byId("rerank").isEmpty());
  }

  @Test
  void theRefusalListsTheRegisteredIdsInOrder() {
    assertEquals("chat, completions, responses or embeddings", Endpoints.idsText());
  }

  @Test
  void eachEndpointHasItsOwnPath() {
    assertEquals(
        List.of("/v1/chat/completions", "/v1/completions", "/v1/responses", "/v1/embeddings"),
        Endpoints.ALL.stream().map(Endpoint::path).toList());
  }

  @Test
  void embeddingsAreOneJsonBodyWithE2elAlone() {
    Endpoint e = Endpoints.EMBEDDINGS;
    assertEquals(CaptureKind.JSON_BODY, e.capture());
    assertEquals("application/json", e.capture().accept());
    assertEquals(List.of(Metric.E2EL), e.figures().latencies());
    assertFalse(e.figures().generates());
  }

  @Test
  void generatingEndpointsStreamAndHaveEveryLatency() {
    for (Endpoint e : List.of(Endpoints.CHAT, Endpoints.COMPLETIONS, Endpoints.RESPONSES)) {
      assertEquals(CaptureKind.EVENT_STREAM, e.capture(), e.id());
      assertEquals(List.of(Metric.values()), e.figures().latencies(), e.id());
    }
  }

  @Test
  void onlyChatAndResponsesTakeMessagesAndImages() {
    assertEquals(
        List.of(true, false, true, false),
        Endpoints.ALL.stream().map(Endpoint::takesImages).toList());
    assertEquals(
        List.of(true, false, true, false),
        Endpoints.ALL.stream().map(Endpoint::takesChatMessages).toList());
  }

  @Test
  void theResponsesLengthKeyIsItsOwnWhateverTheExtraBodySays() {
    var extra = StreamedBodies.JSON.createObjectNode().put("max_tokens", 7);
    assertEquals(
        "max_output_tokens",
        Endpoints.RESPONSES.outputLengthKey("max_completion_tokens", extra).orElseThrow());
    assertEquals(
        "max_tokens", Endpoints.CHAT.outputLengthKey("max_completion_tokens", extra).orElseThrow());
    assertTrue(Endpoints.EMBEDDINGS.outputLengthKey("max_tokens", extra).isEmpty());
  }
}
