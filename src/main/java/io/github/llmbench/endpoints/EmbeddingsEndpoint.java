package io.github.llmbench.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * OpenAI's embeddings API ({@code -Dapi=embeddings}), vLLM's pooling task: the prompt in, one JSON
 * body of vectors out, not streamed; nothing is generated, so only E2EL and input tokens mean
 * anything.
 *
 * <p>Its body is what {@code vllm bench serve}'s {@code openai-embeddings} backend sends: the model
 * and the prompt's text as {@code input}; no stream, no length, no {@code ignore_eos}. vLLM also
 * sends {@code truncate_prompt_tokens: -1}; the kit does not, since its prompts are already fitted
 * to the context and a silent cut would hide one that is not ({@code -Dextra.body} adds it).
 */
final class EmbeddingsEndpoint implements Endpoint {

  @Override
  public String id() {
    return "embeddings";
  }

  @Override
  public String path() {
    return "/v1/embeddings";
  }

  @Override
  public String helpText() {
    return path() + " (one JSON body, not streamed: E2EL and input tokens)";
  }

  @Override
  public CaptureKind capture() {
    return CaptureKind.JSON_BODY;
  }

  @Override
  public Figures figures() {
    return Figures.POOLED;
  }

  @Override
  public boolean takesChatMessages() {
    return false;
  }

  @Override
  public boolean takesImages() {
    return false;
  }

  @Override
  public Optional<String> outputLengthKey(String serverChatKey, ObjectNode extraBody) {
    return Optional.empty();
  }

  @Override
  public ObjectNode body(BodyRequest request) {
    ObjectNode body = StreamedBodies.start(request);
    body.put("input", request.promptText());
    return body;
  }
}
