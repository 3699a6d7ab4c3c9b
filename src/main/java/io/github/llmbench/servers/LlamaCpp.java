package io.github.llmbench.servers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * llama.cpp's {@code llama-server}: {@code Server: llama.cpp}, model cards {@code owned_by:
 * llamacpp}, chat's output length in {@code max_tokens}, a connection closed after each stream,
 * {@code /tokenize} taking {@code {"content"}}, {@code /apply-template}, and the {@code llamacpp:*}
 * metrics (with {@code --metrics}), which count cached prompt tokens apart from the processed ones.
 */
final class LlamaCpp implements ServerProfile {

  private static final TokenizerForm TOKENIZER = new LlamaCppTokenizer();

  @Override
  public String id() {
    return "llamacpp";
  }

  @Override
  public String label() {
    return "llama.cpp";
  }

  @Override
  public Optional<String> serverHeaderPrefix() {
    return Optional.of("llama.cpp");
  }

  @Override
  public Optional<String> ownedBy() {
    return Optional.of("llamacpp");
  }

  @Override
  public boolean chatTakesMaxCompletionTokens() {
    return false;
  }

  /**
   * A client that reuses the connection races the server's close, and its next request fails at
   * once.
   */
  @Override
  public boolean closesConnectionAfterStream() {
    return true;
  }

  @Override
  public Optional<TokenizerForm> tokenizer() {
    return Optional.of(TOKENIZER);
  }

  @Override
  public MetricNames metrics() {
    return MetricNames.family("llamacpp:")
        .running("llamacpp:requests_processing")
        .waiting("llamacpp:requests_deferred")
        .kvCacheUsage("llamacpp:kv_cache_usage_ratio")
        .promptTokens("llamacpp:prompt_tokens_total")
        .cachedApartPromptTokens("llamacpp:prompt_tokens_cached_total")
        .generationTokens("llamacpp:tokens_predicted_total")
        .build();
  }

  /**
   * {@code {"content"}} -> {@code {"tokens":[...]}}, {@code {"tokens"}} -> {@code {"content"}}; a
   * chat through {@code /apply-template} then {@code /tokenize} with special tokens.
   */
  private static final class LlamaCppTokenizer implements TokenizerForm {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @Override
    public String label() {
      return "llama.cpp";
    }

    @Override
    public OptionalInt count(JsonPost server, String model, String text) {
      // llama-server answers vLLM's form with 200 and an empty list: only its own form counts
      return encode(server, model, text)
          .map(ids -> OptionalInt.of(ids.length))
          .orElse(OptionalInt.empty());
    }

    @Override
    public Optional<int[]> encode(JsonPost server, String model, String text) {
      return server
          .post("/tokenize", JSON.objectNode().put("content", text))
          .flatMap(j -> Tokens.ids(j.path("tokens")));
    }

    @Override
    public Optional<String> decode(JsonPost server, String model, int[] ids) {
      ObjectNode body = JSON.objectNode();
      body.set("tokens", Tokens.array(ids));
      return server
          .post("/detokenize", body)
          .map(j -> j.get("content"))
          .filter(JsonNode::isTextual)
          .map(JsonNode::asText);
    }

    @Override
    public OptionalInt templatedChatTokens(JsonPost server, String model, String content) {
      ObjectNode chat = JSON.objectNode();
      chat.putArray("messages").addObject().put("role", "user").put("content", content);
      Optional<String> templated =
          server
              .post("/apply-template", chat)
              .map(j -> j.get("prompt"))
              .filter(JsonNode::isTextual)
              .map(JsonNode::asText);
      if (templated.isEmpty()) {
        return OptionalInt.empty();
      }
      ObjectNode tokenize =
          JSON.objectNode()
              .put("content", templated.get())
              .put("add_special", true)
              .put("parse_special", true);
      return server
          .post("/tokenize", tokenize)
          .map(j -> j.path("tokens"))
          .filter(JsonNode::isArray)
          .map(t -> OptionalInt.of(t.size()))
          .orElse(OptionalInt.empty());
    }
  }
}
