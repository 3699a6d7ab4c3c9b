package io.github.llmbench.capture;

import io.github.llmbench.records.ServerTimings;
import java.util.List;

/**
 * What one streamed response said, reduced to what the metrics need.
 *
 * @param textArrivalsMs arrival of each chunk carrying generated text, in order
 * @param promptTokens {@code usage.prompt_tokens}, null without a usage object
 * @param completionTokens {@code usage.completion_tokens}, null without a usage object
 * @param sawDone whether {@code data: [DONE]} was seen
 * @param error why the stream is unusable (error event, invalid JSON chunk), null when fine
 * @param serverTimings llama.cpp's {@code timings} object of the final chunk, null without one
 */
public record ParsedStream(
    List<Long> textArrivalsMs,
    Integer promptTokens,
    Integer completionTokens,
    boolean sawDone,
    String error,
    ServerTimings serverTimings) {

  public ParsedStream {
    textArrivalsMs = List.copyOf(textArrivalsMs);
  }

  /** A stream without server timings. */
  public ParsedStream(
      List<Long> textArrivalsMs, Integer promptTokens, Integer completionTokens, boolean sawDone, String error) {
    this(textArrivalsMs, promptTokens, completionTokens, sawDone, error, null);
  }
}
