package io.github.llmbench.capture;

import io.github.llmbench.records.ServerTimings;

/**
 * What one streamed response said, reduced to what the metrics need.
 *
 * @param textArrivalNanos arrival ({@link System#nanoTime()}) of each chunk carrying generated
 *     text, in order; only the first {@code textCount} entries are used
 * @param textCount how many chunks carried text
 * @param promptTokens {@code usage.prompt_tokens}, null without a usage object
 * @param completionTokens {@code usage.completion_tokens}, null without a usage object
 * @param sawDone whether {@code data: [DONE]} was seen
 * @param error why the stream is unusable (error event, invalid JSON chunk), null when fine
 * @param serverTimings llama.cpp's {@code timings} object of the final chunk, null without one
 * @param answer the generated text, when it was kept (multi-turn runs), else null
 * @param firstOutput the index of the first chunk with answer text ({@code content} or {@code
 *     text}, not reasoning), -1 when none had any
 * @param reasoningChunks how many text chunks carried only reasoning
 * @param reasoningTokens {@code usage.completion_tokens_details.reasoning_tokens}, null without
 * @param finishReason the last {@code finish_reason} of the first choice that was not null ({@code
 *     length}, {@code stop}, {@code tool_calls}, ...), null when none said
 * @param reasoningText the thinking text, when it was kept and there was some, else null
 */
public record ParsedStream(
    long[] textArrivalNanos,
    int textCount,
    Integer promptTokens,
    Integer completionTokens,
    boolean sawDone,
    String error,
    ServerTimings serverTimings,
    String answer,
    int firstOutput,
    int reasoningChunks,
    Integer reasoningTokens,
    String finishReason,
    String reasoningText) {

  /** Nothing read (the request failed before its body). */
  static final ParsedStream EMPTY =
      new ParsedStream(
          new long[0], 0, null, null, false, null, null, null, -1, 0, null, null, null);

  /** A stream without reasoning. */
  public ParsedStream(
      long[] textArrivalNanos,
      int textCount,
      Integer promptTokens,
      Integer completionTokens,
      boolean sawDone,
      String error,
      ServerTimings serverTimings,
      String answer) {
    this(
        textArrivalNanos,
        textCount,
        promptTokens,
        completionTokens,
        sawDone,
        error,
        serverTimings,
        answer,
        textCount > 0 ? 0 : -1,
        0,
        null,
        null,
        null);
  }

  /** A stream without server timings, e.g. for tests. */
  public ParsedStream(
      long[] textArrivalNanos,
      Integer promptTokens,
      Integer completionTokens,
      boolean sawDone,
      String error) {
    this(
        textArrivalNanos,
        textArrivalNanos.length,
        promptTokens,
        completionTokens,
        sawDone,
        error,
        null,
        null);
  }

  public long firstTextNanos() {
    return textArrivalNanos[0];
  }

  public long lastTextNanos() {
    return textArrivalNanos[textCount - 1];
  }
}
