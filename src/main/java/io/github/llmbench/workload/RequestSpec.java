package io.github.llmbench.workload;

import java.util.List;

/**
 * One request to send: the prompt (or chat messages, from a dataset file), {@code max_tokens}, and
 * the workload profile it belongs to (null outside profile runs).
 *
 * @param prompt the prompt text, used when {@code messages} is null
 * @param messages chat messages (role, content) from a dataset file, or null
 * @param promptTokens the prompt's length in tokens as the dataset intended it, or -1 when unknown
 */
public record RequestSpec(
    String prompt, List<ChatMessage> messages, int maxTokens, String profile, int promptTokens) {

  public record ChatMessage(String role, String content) {}

  public static RequestSpec ofPrompt(
      String prompt, int maxTokens, String profile, int promptTokens) {
    return new RequestSpec(prompt, null, maxTokens, profile, promptTokens);
  }

  /** The text for a completions endpoint: the prompt, or the messages' contents joined. */
  public String promptText() {
    if (messages == null) {
      return prompt;
    }
    StringBuilder sb = new StringBuilder();
    for (ChatMessage m : messages) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(m.content());
    }
    return sb.toString();
  }
}
