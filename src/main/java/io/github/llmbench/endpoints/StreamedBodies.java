package io.github.llmbench.endpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * What every streamed body says, as {@code vllm bench serve} sends it: the model, the output
 * length, {@code stream: true} and {@code ignore_eos: true}, vLLM's extension that makes the output
 * length exact (other servers ignore unknown fields or honour it too).
 */
final class StreamedBodies {
  static final ObjectMapper JSON = new ObjectMapper();

  private StreamedBodies() {}

  /** A body naming the model, for the endpoint to add its input to. */
  static ObjectNode start(BodyRequest request) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", request.model());
    return body;
  }

  /**
   * The output length, the stream and {@code ignore_eos}, after the input; with {@code
   * stream_options.include_usage} when {@code askUsage}, so the server reports its own token
   * counts.
   */
  static ObjectNode streamed(ObjectNode body, BodyRequest request, boolean askUsage) {
    body.put(request.outputLengthKey(), request.maxTokens());
    body.put("stream", true);
    if (askUsage) {
      body.putObject("stream_options").put("include_usage", true);
    }
    body.put("ignore_eos", true);
    return body;
  }

  /** The extra body's key for the output length when it names one, else {@code fallback}. */
  static Optional<String> chosenKey(ObjectNode extraBody, String fallback) {
    return Optional.of(
        extraBody.has("max_tokens")
            ? "max_tokens"
            : extraBody.has("max_completion_tokens") ? "max_completion_tokens" : fallback);
  }
}
