package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.servers.ServerProfile;
import io.github.llmbench.servers.ServerProfiles;
import io.github.llmbench.simulator.Dialect;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.workload.ServerTokenizer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The kit's calls before the load against the simulator's SGLang, TGI and trtllm-serve dialects:
 * which server it is, where its context and tokenizer are, where a chat request's output length
 * goes.
 */
class ServerApiDialectsTest {

  static VllmSimulator start(Dialect d) {
    return VllmSimulator.start(
        SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090").withDialect(d));
  }

  static ServerApi api(VllmSimulator sim) {
    ServerApi api = new ServerApi(URI.create(sim.baseUrl()), Optional.empty(), Map.of());
    api.models();
    return api;
  }

  @Test
  void eachServerIsToldApart() {
    Map<Dialect, ServerProfile> expected =
        Map.of(
            Dialect.VLLM, ServerProfiles.VLLM,
            Dialect.LLAMACPP, ServerProfiles.LLAMACPP,
            Dialect.SGLANG, ServerProfiles.SGLANG,
            Dialect.TGI, ServerProfiles.TGI,
            Dialect.TRTLLM, ServerProfiles.TRTLLM);
    expected.forEach(
        (dialect, kind) -> {
          try (VllmSimulator sim = start(dialect)) {
            assertEquals(kind, api(sim).kind(), dialect.id());
          }
        });
    assertEquals("max_completion_tokens", ServerProfiles.VLLM.maxTokensKey(true));
    assertEquals("max_tokens", ServerProfiles.VLLM.maxTokensKey(false));
    assertEquals("max_tokens", ServerProfiles.LLAMACPP.maxTokensKey(true));
    assertEquals("max_tokens", ServerProfiles.OTHER.maxTokensKey(true));
    assertFalse(ServerProfiles.TGI.honoursIgnoreEos());
  }

  @Test
  void sglangLikeVllmHasItsContextInTheModelCardAndTokenizesAlike() {
    try (VllmSimulator sim = start(Dialect.SGLANG)) {
      ServerApi api = api(sim);
      String model = api.models().get(0);
      assertEquals(
          Catalog.model("sim-tiny").maxModelLen(), api.contextLength(model).orElseThrow().tokens());
      ServerTokenizer t = api.tokenizer(model);
      assertEquals(5, t.count("how fast is the server").getAsInt());
      assertEquals("vLLM /tokenize (no /detokenize)", t.describe());
    }
  }

  @Test
  void tgiHasItsContextInInfoAndItsOwnTokenizeShape() {
    try (VllmSimulator sim = start(Dialect.TGI)) {
      ServerApi api = api(sim);
      var c = api.contextLength("sim-tiny").orElseThrow();
      assertEquals(Catalog.model("sim-tiny").maxModelLen(), c.tokens());
      assertEquals("max_total_tokens of GET /info", c.source());
      ServerTokenizer t = api.tokenizer("sim-tiny");
      assertEquals(5, t.count("how fast is the server").getAsInt());
      assertEquals(5, t.encode("how fast is the server").orElseThrow().length);
      assertEquals("TGI /tokenize (no /detokenize)", t.describe());
    }
  }

  @Test
  void trtllmHasNoPublicTokenizerNorContext() {
    try (VllmSimulator sim = start(Dialect.TRTLLM)) {
      ServerApi api = api(sim);
      assertFalse(api.tokenizer("sim-tiny").present());
      assertTrue(api.contextLength("sim-tiny").isEmpty());
    }
  }

  /** SGLang's /detokenize answers {"text"} where vLLM's says {"prompt"}: both are read. */
  @Test
  void sglangsDetokenizeTextIsRead() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/tokenize", x -> reply(x, "{\"tokens\":[7,8],\"count\":2,\"max_model_len\":4096}"));
    server.createContext("/detokenize", x -> reply(x, "{\"text\":\"hello\"}"));
    server.start();
    try {
      ServerApi api =
          new ServerApi(
              URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
              Optional.empty(),
              Map.of());
      ServerTokenizer t = api.tokenizer("m");
      assertEquals("vLLM /tokenize + /detokenize", t.describe());
      assertEquals("hello", t.decode(new int[] {7, 8}).orElseThrow());
    } finally {
      server.stop(0);
    }
  }

  private static void reply(com.sun.net.httpserver.HttpExchange x, String json)
      throws java.io.IOException {
    x.getRequestBody().readAllBytes();
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(200, b.length);
    x.getResponseBody().write(b);
    x.close();
  }
}
