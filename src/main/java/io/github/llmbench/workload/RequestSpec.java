package io.github.llmbench.workload;

import java.util.ArrayList;
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

  /**
   * A chat message: its text and the images it carries ({@code image_url} parts: data URIs or
   * addresses), sent after the text.
   */
  public record ChatMessage(String role, String content, List<String> images) {
    public ChatMessage {
      images = List.copyOf(images);
    }

    /** A message of text only. */
    public ChatMessage(String role, String content) {
      this(role, content, List.of());
    }
  }

  /**
   * The request with {@code images} added to its last user message (a prompt becomes that message),
   * or itself when there are none.
   */
  public RequestSpec withImages(List<String> images) {
    if (images.isEmpty()) {
      return this;
    }
    List<ChatMessage> out =
        new ArrayList<>(messages == null ? List.of(new ChatMessage("user", prompt)) : messages);
    int last = out.size() - 1;
    while (last > 0 && !out.get(last).role().equals("user")) {
      last--;
    }
    ChatMessage m = out.get(last);
    List<String> all = new ArrayList<>(m.images());
    all.addAll(images);
    out.set(last, new ChatMessage(m.role(), m.content(), all));
    return new RequestSpec(null, out, maxTokens, profile, promptTokens);
  }

  /** The images of all its messages. */
  public int imageCount() {
    return messages == null ? 0 : messages.stream().mapToInt(m -> m.images().size()).sum();
  }

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
