package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --tokens-per-chunk}: each content chunk carries that many tokens (the last one what is
 * left), the usage still counts every token, and the chunks come that many steps apart.
 */
class TokensPerChunkTest {

  private static List<JsonNode> contentChunks(SimClient c, boolean chat, int maxTokens)
      throws Exception {
    String body =
        chat
            ? "{\"messages\":[{\"role\":\"user\",\"content\":\"a b c\"}],\"max_tokens\":"
                + maxTokens
                + ",\"stream\":true,\"stream_options\":{\"include_usage\":true}}"
            : "{\"prompt\":\"a b c\",\"max_tokens\":"
                + maxTokens
                + ",\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
    List<JsonNode> out = new ArrayList<>();
    JsonNode usage = null;
    for (SimClient.Event e :
        c.stream(chat ? "/v1/chat/completions" : "/v1/completions", body, new long[1])) {
      if (e.data().equals("[DONE]")) {
        continue;
      }
      JsonNode j = SimClient.json(e.data());
      if (j.path("choices").isEmpty()) {
        usage = j.path("usage");
        continue;
      }
      JsonNode choice = j.path("choices").get(0);
      String text =
          chat ? choice.path("delta").path("content").asText("") : choice.path("text").asText("");
      if (!text.isEmpty()) {
        out.add(choice);
      }
    }
    assertEquals(maxTokens, usage.path("completion_tokens").asInt(), "usage counts every token");
    return out;
  }

  @Test
  void chunksCarryTheGivenTokens() throws Exception {
    try (VllmSimulator one =
            VllmSimulator.start(
                SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090"));
        VllmSimulator three =
            VllmSimulator.start(
                SimulatorConfig.defaults()
                    .withModel("sim-tiny")
                    .withGpu("rtx4090")
                    .withTokensPerChunk(3))) {
      for (boolean chat : new boolean[] {true, false}) {
        List<JsonNode> single = contentChunks(new SimClient(one), chat, 10);
        List<JsonNode> triple = contentChunks(new SimClient(three), chat, 10);
        assertEquals(10, single.size());
        assertEquals(4, triple.size(), "3 + 3 + 3 + 1 tokens");
        assertEquals(
            "length", triple.get(3).path("finish_reason").asText(), "the last chunk ends it");
      }
    }
  }

  @Test
  void outOfRangeIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> SimulatorConfig.defaults().withTokensPerChunk(0));
    assertTrue(e.getMessage().contains("accepted: a whole number from 1 to 64"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> VllmSimulatorMain.parse(new String[] {"--tokens-per-chunk", "65"}));
    assertEquals(
        4, VllmSimulatorMain.parse(new String[] {"--tokens-per-chunk", "4"}).tokensPerChunk());
  }
}
