package io.github.llmbench.endpoints;

import java.util.List;

/**
 * What an endpoint's body is made of: the model, the prompt (or the conversation's messages) and
 * the output length.
 *
 * @param messages the conversation, or null for a single {@code prompt}
 * @param promptText the prompt, or the messages' contents joined, for an endpoint that takes text
 * @param outputLengthKey where {@code maxTokens} goes (from {@link Endpoint#outputLengthKey})
 */
public record BodyRequest(
    String model,
    String prompt,
    List<Message> messages,
    String promptText,
    int maxTokens,
    String outputLengthKey) {

  /** A message: its text and the images it carries (data URIs or addresses), sent after it. */
  public record Message(String role, String content, List<String> images) {}
}
