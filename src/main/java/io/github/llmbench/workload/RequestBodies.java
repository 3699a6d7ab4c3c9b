package io.github.llmbench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.endpoints.BodyRequest;
import io.github.llmbench.endpoints.Endpoint;
import io.github.llmbench.workload.sessions.SessionCall;
import io.github.llmbench.workload.sessions.SessionRun;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The JSON bodies of the run's requests: the endpoint's body ({@link Endpoint#body}: for a streamed
 * one, as {@code vllm bench serve} sends it), then the user's extra body merged over it ({@code
 * -Dextra.body}, vLLM's {@code --extra-body}: its keys win, as there).
 */
public final class RequestBodies {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Endpoint endpoint;
  private final String model;
  private final ObjectNode extraBody;
  private final String outputLengthKey;

  /** Bodies for a server that reads {@code max_tokens} for chat requests. */
  public RequestBodies(Endpoint endpoint, String model, ObjectNode extraBody) {
    this(endpoint, model, extraBody, "max_tokens");
  }

  /**
   * @param extraBody merged into every body (shared, never changed here); empty for none
   * @param serverChatKey where the server takes a chat request's output length ({@code max_tokens},
   *     or {@code max_completion_tokens}); the endpoint decides the key from it and the extra body
   *     ({@link Endpoint#outputLengthKey})
   */
  public RequestBodies(
      Endpoint endpoint, String model, ObjectNode extraBody, String serverChatKey) {
    this.endpoint = endpoint;
    this.model = model;
    this.extraBody = extraBody.deepCopy();
    this.outputLengthKey = endpoint.outputLengthKey(serverChatKey, extraBody).orElse("");
  }

  /** The body for the run's endpoint naming {@code model} (one of a mix, {@code -Dmodel=a,b}). */
  public String body(RequestSpec request, String model) {
    ObjectNode body = endpoint.body(parts(request, model));
    body.setAll(extraBody);
    return write(body);
  }

  /** As {@link #body(RequestSpec, String)}, naming the run's model. */
  public String body(RequestSpec request) {
    return body(request, model);
  }

  /**
   * The body of an agent session's call: the endpoint's (a chat endpoint's) with the call's
   * messages as its round sends them (tool calls and results included), its tools, its model and
   * {@code max_tokens} where it names them (else the run's and {@code defaultMaxTokens}), then the
   * run's extra body, then the call's own fields, which win.
   *
   * @throws IllegalArgumentException when the run's endpoint takes no chat messages
   */
  public String sessionBody(SessionRun.Request request, int defaultMaxTokens) {
    if (!endpoint.takesChatMessages()) {
      throw new IllegalArgumentException(
          "agent sessions send chat messages: -Dapi=" + endpoint.id() + " takes none");
    }
    SessionCall call = request.spec();
    ObjectNode body =
        endpoint.body(
            new BodyRequest(
                call.model() != null ? call.model() : model,
                null,
                List.of(),
                "",
                call.maxTokens() > 0 ? call.maxTokens() : defaultMaxTokens,
                outputLengthKey));
    body.set("messages", JSON.valueToTree(request.messages()));
    if (!call.tools().isEmpty()) {
      body.set("tools", JSON.valueToTree(call.tools()));
    }
    body.setAll(extraBody);
    call.body().forEach((k, v) -> body.set(k, JSON.valueToTree(v)));
    return write(body);
  }

  private BodyRequest parts(RequestSpec request, String model) {
    return new BodyRequest(
        model,
        request.prompt(),
        request.messages() == null
            ? null
            : request.messages().stream()
                .map(m -> new BodyRequest.Message(m.role(), m.content(), m.images()))
                .toList(),
        request.promptText(),
        request.maxTokens(),
        outputLengthKey);
  }

  private static String write(ObjectNode body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
