package io.github.llmbench.workload.sessions;

import io.github.llmbench.workload.TokenLengths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A message of a session's call whose text may quote earlier calls: {@code {{answer:ID}}} is the
 * answer call {@code ID} streamed (its text as the server sent it), {@code {{tool_calls:ID}}} the
 * tool calls it made (as JSON). A message {@code {"role":"assistant","answer_of":"ID"}} is that
 * answer as a message of its own. {@code {{tokens:N}}} is synthetic text of N tokens of the
 * server's tokenizer, its own to this call; {@code {{tokens:N:KEY}}} the same text wherever KEY is
 * the same (a system prompt shared by every session, say), for a prefix cache to find.
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param parts its text and quotes, in order
 */
public record MessageTemplate(String role, List<Part> parts) {

  /** The roles a message may have. */
  public static final List<String> ROLES = List.of("system", "user", "assistant", "tool");

  private static final Pattern PLACEHOLDER =
      Pattern.compile("\\{\\{\\s*([a-z_]+)\\s*:\\s*([^{}]*?)\\s*\\}\\}");

  public MessageTemplate {
    parts = List.copyOf(parts);
  }

  /** A piece of a message. */
  public sealed interface Part {}

  /** Text sent as written. */
  public record Text(String text) implements Part {}

  /** What an earlier call gave, put in at the time this call is sent. */
  public record Quote(String call, Quoted what) implements Part {}

  /**
   * Synthetic text of {@code tokens} tokens: the same text for the same key, the call's own when
   * {@code key} is null.
   */
  public record Filler(int tokens, String key) implements Part {
    public Filler {
      if (tokens < 1) {
        throw new IllegalArgumentException("synthetic text needs a length from 1 token: " + tokens);
      }
    }
  }

  /** Makes synthetic text of an exact length in tokens: the same text for the same key. */
  @FunctionalInterface
  public interface FillerText {
    String text(int tokens, String key);
  }

  /** What of an earlier call a quote takes. */
  public enum Quoted {
    /** The answer's text. */
    ANSWER,
    /** Its tool calls, as the JSON array the server streamed. */
    TOOL_CALLS
  }

  /**
   * The message a session file's text makes.
   *
   * @throws IllegalArgumentException naming the placeholder when its kind is not {@code answer} or
   *     {@code tool_calls}, or it names no call
   */
  public static MessageTemplate parse(String role, String content) {
    List<Part> parts = new ArrayList<>();
    Matcher m = PLACEHOLDER.matcher(content);
    int at = 0;
    while (m.find()) {
      Part part =
          switch (m.group(1)) {
            case "answer" -> new Quote(named(m), Quoted.ANSWER);
            case "tool_calls" -> new Quote(named(m), Quoted.TOOL_CALLS);
            case "tokens" -> filler(m);
            default -> throw unknown(m);
          };
      if (m.start() > at) {
        parts.add(new Text(content.substring(at, m.start())));
      }
      parts.add(part);
      at = m.end();
    }
    if (at < content.length() || parts.isEmpty()) {
      parts.add(new Text(content.substring(at)));
    }
    return new MessageTemplate(role, parts);
  }

  private static String named(Matcher m) {
    if (m.group(2).isEmpty()) {
      throw unknown(m);
    }
    return m.group(2);
  }

  private static Filler filler(Matcher m) {
    String[] f = m.group(2).split(":", 2);
    if (!f[0].strip().matches("[0-9]+") || (f.length == 2 && f[1].isBlank())) {
      throw unknown(m);
    }
    int tokens =
        TokenLengths.parse(f[0].strip(), 1)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "quotes " + m.group() + " (expected N " + TokenLengths.accepted(1) + ")"));
    return new Filler(tokens, f.length == 2 ? f[1].strip() : null);
  }

  private static IllegalArgumentException unknown(Matcher m) {
    return new IllegalArgumentException(
        "quotes "
            + m.group()
            + " (expected {{answer:ID}}, {{tool_calls:ID}}, {{tokens:N}} or {{tokens:N:KEY}})");
  }

  /** The answer of call {@code id} as an assistant message. */
  public static MessageTemplate answerOf(String id) {
    return new MessageTemplate("assistant", List.of(new Quote(id, Quoted.ANSWER)));
  }

  /** The calls it quotes. */
  public Set<String> quotedCalls() {
    Set<String> out = new LinkedHashSet<>();
    for (Part p : parts) {
      if (p instanceof Quote q) {
        out.add(q.call());
      }
    }
    return out;
  }

  /** The synthetic tokens it holds (its length, quotes aside, when it holds no other text). */
  public int fillerTokens() {
    return parts.stream().mapToInt(p -> p instanceof Filler f ? f.tokens() : 0).sum();
  }

  /**
   * Its text, each quote replaced by what {@code outcomes} says that call gave and each filler by
   * {@code filler}'s text ({@code ownKey} and the part's index key a filler of no key of its own).
   */
  public String render(Function<String, CallOutcome> outcomes, FillerText filler, String ownKey) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p instanceof Quote q) {
        CallOutcome o = outcomes.apply(q.call());
        sb.append(q.what() == Quoted.ANSWER ? o.answer() : o.toolCallsJson());
      } else if (p instanceof Filler f) {
        sb.append(filler.text(f.tokens(), f.key() != null ? f.key() : ownKey + "#" + i));
      } else {
        sb.append(((Text) p).text());
      }
    }
    return sb.toString();
  }
}
