package io.github.llmbench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.settings.BenchSettings.Api;
import java.io.UncheckedIOException;

/**
 * The JSON bodies of streaming requests, as {@code vllm bench serve} sends them: {@code stream:
 * true}, {@code stream_options.include_usage: true} (so the server reports its own token counts),
 * {@code max_tokens} (or {@code max_completion_tokens}, which vLLM's chat API prefers), and {@code
 * ignore_eos: true}, vLLM's extension that makes the output length exact (other servers ignore
 * unknown fields or honour it too); then the user's extra body merged over them ({@code
 * -Dextra.body}, vLLM's {@code --extra-body}: its keys win, as there). An embeddings request
 * ({@link #embedding}) is not streamed and asks for no length.
 */
public final class RequestBodies {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Api api;
  private final String model;
  private final ObjectNode extraBody;
  private final String maxTokensKey;

  /** Bodies with the output length in {@code max_tokens}. */
  public RequestBodies(Api api, String model, ObjectNode extraBody) {
    this(api, model, extraBody, "max_tokens");
  }

  /**
   * @param extraBody merged into every body (shared, never changed here); empty for none
   * @param maxTokensKey where the output length goes ({@code max_tokens}, or {@code
   *     max_completion_tokens} for a chat server that reads it); the extra body's own choice of
   *     either key wins, so that a request never carries both with different values
   */
  public RequestBodies(Api api, String model, ObjectNode extraBody, String maxTokensKey) {
    this.api = api;
    this.model = model;
    this.extraBody = extraBody.deepCopy();
    this.maxTokensKey =
        api == Api.RESPONSES
            ? RESPONSES_MAX_TOKENS
            : extraBody.has("max_tokens")
                ? "max_tokens"
                : extraBody.has("max_completion_tokens") ? "max_completion_tokens" : maxTokensKey;
  }

  /**
   * A message with its images after its text: chat's {@code text} and {@code image_url} parts, or
   * the Responses API's {@code input_text} and {@code input_image}.
   */
  private void message(ObjectNode out, RequestSpec.ChatMessage m) {
    out.put("role", m.role());
    if (m.images().isEmpty()) {
      out.put("content", m.content());
      return;
    }
    boolean responses = api == Api.RESPONSES;
    var parts = out.putArray("content");
    if (!m.content().isEmpty()) {
      parts.addObject().put("type", responses ? "input_text" : "text").put("text", m.content());
    }
    for (String url : m.images()) {
      ObjectNode part = parts.addObject();
      if (responses) {
        part.put("type", "input_image").put("image_url", url);
      } else {
        part.put("type", "image_url").putObject("image_url").put("url", url);
      }
    }
  }

  /** Where the Responses API takes the output length. */
  public static final String RESPONSES_MAX_TOKENS = "max_output_tokens";

  public String streaming(RequestSpec request) {
    return streaming(request, model);
  }

  /** The body for the run's endpoint naming {@code model}: streamed, or an embeddings request. */
  public String body(RequestSpec request, String model) {
    return api.pooling() ? embedding(request, model) : streaming(request, model);
  }

  /** As {@link #body(RequestSpec, String)}, naming the run's model. */
  public String body(RequestSpec request) {
    return body(request, model);
  }

  /**
   * An embeddings request's body ({@code POST /v1/embeddings}), as {@code vllm bench serve}'s
   * {@code openai-embeddings} backend sends it: the model and the prompt's text as {@code input};
   * no stream, no length, no {@code ignore_eos}. vLLM also sends {@code truncate_prompt_tokens:
   * -1}; the kit does not, since its prompts are already fitted to the context and a silent cut
   * would hide one that is not ({@code -Dextra.body} adds it).
   */
  public String embedding(RequestSpec request, String model) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    body.put("input", request.promptText());
    body.setAll(extraBody);
    return write(body);
  }

  /** The streamed request's body naming {@code model} (one of a mix, {@code -Dmodel=a,b}). */
  public String streaming(RequestSpec request, String model) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    if (api.chatMessages()) {
      // the Responses API takes the same messages as its input
      var messages = body.putArray(api == Api.RESPONSES ? "input" : "messages");
      if (request.messages() != null) {
        request.messages().forEach(m -> message(messages.addObject(), m));
      } else {
        messages.addObject().put("role", "user").put("content", request.prompt());
      }
    } else {
      body.put("prompt", request.promptText());
    }
    body.put(maxTokensKey, request.maxTokens());
    body.put("stream", true);
    if (api != Api.RESPONSES) { // its final event always carries the usage
      body.putObject("stream_options").put("include_usage", true);
    }
    body.put("ignore_eos", true);
    body.setAll(extraBody);
    return write(body);
  }

  private static String write(ObjectNode body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
