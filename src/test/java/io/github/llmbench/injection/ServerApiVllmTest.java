package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.workload.PreparedWorkload;
import io.github.llmbench.workload.ServerTokenizer;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The kit's calls before the load against the embedded simulator's vLLM endpoints. */
class ServerApiVllmTest {

  @Test
  void contextChatTemplateAndTokenizerAsVllmTellsThem() {
    try (VllmSimulator sim =
        VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090"))) {
      ServerApi api =
          new ServerApi(URI.create(sim.baseUrl()), Optional.empty(), Map.of("X-Route", "a"));
      String model = api.models().get(0);
      PreparedWorkload.ContextLength c = api.contextLength(model).orElseThrow();
      assertEquals(Catalog.model("sim-tiny").maxModelLen(), c.tokens());
      assertEquals("max_model_len of GET /v1/models", c.source());

      ServerTokenizer t = api.tokenizer(model);
      assertTrue(t.present());
      assertEquals(5, t.count("how fast is the server").getAsInt());
      assertEquals(5, t.encode("how fast is the server").orElseThrow().length);
      assertFalse(t.decode(new int[] {1, 2}).isPresent(), "the simulator has no /detokenize");
      assertEquals("vLLM /tokenize (no /detokenize)", t.describe());
      // the simulator's ChatML: 5 tokens around each message, 3 for the generation prompt
      assertEquals(8, api.chatTemplateTokens(model, t, "how fast is the server").getAsInt());
      assertTrue(
          api.contextLength("another-model").isEmpty(),
          "max_model_len is read from the model's own card");
    }
  }
}
