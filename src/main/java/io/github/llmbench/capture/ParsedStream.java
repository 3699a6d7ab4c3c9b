package io.github.llmbench.capture;

import io.github.llmbench.records.ServerTimings;
import java.util.List;

/**
 * What one streamed response said, reduced to what the metrics need: its text chunks, its usage,
 * and how it ended.
 *
 * @param text the chunks that carried generated text
 * @param usage the counts of the stream's usage object
 * @param sawDone whether {@code data: [DONE]} was seen
 * @param error why the stream is unusable (error event, invalid JSON chunk), null when fine
 * @param finishReason the last {@code finish_reason} of the first choice that was not null ({@code
 *     length}, {@code stop}, {@code tool_calls}, ...), null when none said
 * @param serverTimings llama.cpp's {@code timings} object of the final chunk, null without one
 */
public record ParsedStream(
    TextChunks text,
    Usage usage,
    boolean sawDone,
    String error,
    String finishReason,
    ServerTimings serverTimings) {

  /**
   * The chunks that carried generated text.
   *
   * @param arrivalNanos arrival ({@link System#nanoTime()}) of each, in order; only the first
   *     {@code count} entries are used
   * @param count how many chunks carried text
   * @param firstOutput the index of the first chunk with answer text ({@code content} or {@code
   *     text}, not reasoning), -1 when none had any
   * @param reasoningChunks how many carried only reasoning
   * @param answer the generated text, when it was kept (multi-turn runs), else null; a tool call's
   *     name and arguments are in it too (so their tokens are counted where the usage says none)
   * @param reasoningText the thinking text, when it was kept and there was some, else null
   * @param toolCalls the tool calls, when answers were kept; empty when none or not kept
   * @param ends where each chunk's text ends, when the texts were kept: in the answer ({@code >=
   *     0}) or the thinking ({@code -1 - end}); null when not kept
   */
  public record TextChunks(
      long[] arrivalNanos,
      int count,
      int firstOutput,
      int reasoningChunks,
      String answer,
      String reasoningText,
      List<ToolCall> toolCalls,
      int[] ends) {

    public TextChunks {
      toolCalls = List.copyOf(toolCalls);
    }

    /** Chunks of answer text only, none kept. */
    public static TextChunks answerOnly(long[] arrivalNanos, int count) {
      return new TextChunks(
          arrivalNanos, count, count > 0 ? 0 : -1, 0, null, null, List.of(), null);
    }
  }

  /**
   * A tool call the stream made.
   *
   * @param id its {@code id} (what the tool's result names)
   * @param name its function's name
   * @param arguments its function's arguments, as the model wrote them (JSON text, unchecked)
   */
  public record ToolCall(String id, String name, String arguments) {}

  /**
   * The stream's usage object; each count null when it said none.
   *
   * @param promptTokens {@code usage.prompt_tokens}
   * @param completionTokens {@code usage.completion_tokens}
   * @param reasoningTokens {@code usage.completion_tokens_details.reasoning_tokens}
   * @param cachedTokens {@code usage.prompt_tokens_details.cached_tokens} (vLLM with {@code
   *     --enable-prompt-tokens-details}), else llama.cpp's {@code timings.cache_n}
   */
  public record Usage(
      Integer promptTokens,
      Integer completionTokens,
      Integer reasoningTokens,
      Integer cachedTokens) {
    public Usage(Integer promptTokens, Integer completionTokens, Integer reasoningTokens) {
      this(promptTokens, completionTokens, reasoningTokens, null);
    }
  }

  /** Nothing read (the request failed before its body). */
  static final ParsedStream EMPTY = new ParsedStream(new long[0], 0, null, null, false, null);

  /** A stream of answer text only, no reasoning, finish reason or server timings (e.g. tests). */
  public ParsedStream(
      long[] textArrivalNanos,
      int textCount,
      Integer promptTokens,
      Integer completionTokens,
      boolean sawDone,
      String error) {
    this(
        TextChunks.answerOnly(textArrivalNanos, textCount),
        new Usage(promptTokens, completionTokens, null),
        sawDone,
        error,
        null,
        null);
  }

  /** As {@link #ParsedStream(long[], int, Integer, Integer, boolean, String)}, every chunk. */
  public ParsedStream(
      long[] textArrivalNanos,
      Integer promptTokens,
      Integer completionTokens,
      boolean sawDone,
      String error) {
    this(textArrivalNanos, textArrivalNanos.length, promptTokens, completionTokens, sawDone, error);
  }

  /** Arrival of each chunk carrying text; see {@link TextChunks#arrivalNanos}. */
  public long[] textArrivalNanos() {
    return text.arrivalNanos();
  }

  public int textCount() {
    return text.count();
  }

  /** Where each chunk's text ends, when kept ({@link TextChunks#ends}), else null. */
  int[] textEnds() {
    return text.ends();
  }

  public int firstOutput() {
    return text.firstOutput();
  }

  public int reasoningChunks() {
    return text.reasoningChunks();
  }

  public String answer() {
    return text.answer();
  }

  /**
   * The answer's text without its tool calls' names and arguments (which {@link #answer()} holds
   * too): what an assistant message carries beside its {@code tool_calls}. Servers stream the
   * content, if any, before the tool calls, so their pieces are the answer's end. Null when the
   * answer was not kept.
   */
  public String content() {
    String answer = text.answer();
    if (answer == null || text.toolCalls().isEmpty()) {
      return answer;
    }
    int toolText = 0;
    for (ToolCall t : text.toolCalls()) {
      toolText += t.name().length() + t.arguments().length();
    }
    return toolText <= answer.length() ? answer.substring(0, answer.length() - toolText) : "";
  }

  public String reasoningText() {
    return text.reasoningText();
  }

  /** See {@link TextChunks#toolCalls}. */
  public List<ToolCall> toolCalls() {
    return text.toolCalls();
  }

  public Integer promptTokens() {
    return usage.promptTokens();
  }

  public Integer completionTokens() {
    return usage.completionTokens();
  }

  public Integer reasoningTokens() {
    return usage.reasoningTokens();
  }

  public Integer cachedTokens() {
    return usage.cachedTokens();
  }

  public long firstTextNanos() {
    return text.arrivalNanos()[0];
  }

  public long lastTextNanos() {
    return text.arrivalNanos()[text.count() - 1];
  }
}
