package io.github.llmbench.servers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Hugging Face TGI: recognised by its {@code GET /info} ({@code max_total_tokens}, its context
 * length; its model cards are owned by the model), no {@code ignore_eos}, {@code /tokenize} taking
 * {@code {"inputs"}} and answering a list of {@code {"id",...}} (no {@code /detokenize}), and the
 * {@code tgi_*} metrics (its token counts the sums of per-request histograms).
 */
final class Tgi implements ServerProfile {

  private static final TokenizerForm TOKENIZER = new TgiTokenizer();

  @Override
  public String id() {
    return "tgi";
  }

  @Override
  public String label() {
    return "TGI";
  }

  @Override
  public Optional<String> infoContextKey() {
    return Optional.of("max_total_tokens");
  }

  @Override
  public boolean chatTakesMaxCompletionTokens() {
    return true;
  }

  @Override
  public boolean honoursIgnoreEos() {
    return false;
  }

  @Override
  public Optional<TokenizerForm> tokenizer() {
    return Optional.of(TOKENIZER);
  }

  @Override
  public MetricNames metrics() {
    return MetricNames.family("tgi_")
        .running("tgi_batch_current_size")
        .waiting("tgi_queue_size")
        .promptTokens("tgi_request_input_length_sum")
        .generationTokens("tgi_request_generated_tokens_sum")
        .itl("tgi_request_mean_time_per_token_duration")
        .build();
  }

  /** {@code {"inputs"}} -> {@code [{"id","text","start","stop"}, ...]}; no {@code /detokenize}. */
  private static final class TgiTokenizer implements TokenizerForm {

    @Override
    public String label() {
      return "TGI";
    }

    @Override
    public OptionalInt count(JsonPost server, String model, String text) {
      return tokens(server, text)
          .filter(list -> list.isEmpty() || list.get(0).has("id"))
          .map(list -> OptionalInt.of(list.size()))
          .orElse(OptionalInt.empty());
    }

    @Override
    public Optional<int[]> encode(JsonPost server, String model, String text) {
      return tokens(server, text).flatMap(list -> Tokens.ids(list, id -> id.path("id").asInt()));
    }

    @Override
    public Optional<String> decode(JsonPost server, String model, int[] ids) {
      return Optional.empty();
    }

    private static Optional<JsonNode> tokens(JsonPost server, String text) {
      return server
          .post("/tokenize", JsonNodeFactory.instance.objectNode().put("inputs", text))
          .filter(JsonNode::isArray);
    }
  }
}
