package io.github.llmbench.injection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.llmbench.workload.PreparedWorkload;
import io.github.llmbench.workload.ServerTokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The kit's calls before the load, against llama-server's captured answers. */
class ServerApiLlamaCppTest {
  private HttpServer server;
  private ServerApi api;

  static String resource(String name) throws IOException {
    try (InputStream in = ServerApiLlamaCppTest.class.getResourceAsStream("/llamacpp/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/v1/models",
        ex -> {
          ex.getResponseHeaders().add("Server", "llama.cpp");
          reply(ex, 200, resource("models.json"));
        });
    server.createContext(
        "/tokenize",
        ex -> {
          String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          // llama-server answers vLLM's {"model","prompt"} form with 200 and an empty token list
          reply(
              ex,
              200,
              body.contains("\"content\"")
                  ? resource("tokenize.json")
                  : resource("tokenize-vllm-form.json"));
        });
    server.createContext(
        "/props",
        ex ->
            reply(
                ex,
                200,
                "{\"default_generation_settings\":{\"n_ctx\":1024},\"total_slots\":8,\"model_alias\":\"tiny-llama\"}"));
    server.createContext("/detokenize", ex -> reply(ex, 200, "{\"content\":\" how fast\"}"));
    server.start();
    api =
        new ServerApi(
            URI.create("http://127.0.0.1:" + server.getAddress().getPort()), Optional.empty());
  }

  private static void reply(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
    ex.close();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void modelListHasOllamaStyleModelsAndOpenAiData() {
    // {"models":[{"name":...}], "object":"list", "data":[{"id":"tiny-llama", ...}]}: ids from data
    assertEquals(List.of("tiny-llama"), api.models());
  }

  @Test
  void llamaServerIsRecognisedByItsServerHeader() {
    // llama-server announces "Keep-Alive: timeout=5, max=100" but closes after each stream
    assertEquals(false, api.closesConnectionAfterStream()); // not known before GET /v1/models
    api.models();
    assertEquals("llama.cpp", api.serverHeader().orElseThrow());
    assertEquals(true, api.closesConnectionAfterStream());
  }

  @Test
  void tokenizerFallsBackToContentFormWhenPromptFormGivesNoCount() {
    ServerTokenizer counter = api.tokenizer("tiny-llama");
    assertEquals(5, counter.count("how fast is the server").getAsInt());
    assertEquals("llama.cpp /tokenize + /detokenize", counter.describe());
    assertEquals(
        List.of(431, 437, 365, 356, 449),
        Arrays.stream(counter.encode("x").orElseThrow()).boxed().toList());
    assertEquals(" how fast", counter.decode(new int[] {431, 437}).orElseThrow());
  }

  @Test
  void contextIsTheSlotsNctxOfProps() {
    api.models();
    PreparedWorkload.ContextLength c = api.contextLength("tiny-llama").orElseThrow();
    assertEquals(1024, c.tokens(), "-c 8192 over -np 8 slots");
    assertEquals("n_ctx per slot of GET /props", c.source());
    assertEquals(0, c.sharedBySlots(), "1024 of the 4096 trained on: a share each");
  }

  /**
   * As llama-server 0.7.0 answers without {@code -c} and {@code -np}, or with {@code -c 4096 -np 4
   * --kv-unified} (checked by hand): each of its slots reports the model's whole context.
   */
  @Test
  void aUnifiedKvCacheIsToldByItsSlotsReportingTheWholeContext() throws IOException {
    server.removeContext("/props");
    server.createContext(
        "/props",
        ex ->
            reply(
                ex,
                200,
                "{\"default_generation_settings\":{\"n_ctx\":4096},\"total_slots\":4,\"model_alias\":\"tiny-llama\"}"));
    api.models();
    PreparedWorkload.ContextLength c = api.contextLength("tiny-llama").orElseThrow();
    assertEquals(4096, c.tokens());
    assertEquals(4, c.sharedBySlots());
    assertEquals("n_ctx of GET /props, shared by its 4 slots", c.source());
  }

  @Test
  void withoutPropsTheModelsMetaIsRead() throws IOException {
    server.removeContext("/props");
    api.models();
    PreparedWorkload.ContextLength c = api.contextLength("tiny-llama").orElseThrow();
    assertEquals("meta.n_ctx of GET /v1/models", c.source());
    assertEquals(1024, c.tokens());
  }
}
