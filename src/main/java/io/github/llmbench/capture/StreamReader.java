package io.github.llmbench.capture;

import io.github.llmbench.records.ServerTimings;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.List;

/**
 * Reads one streamed response body as it arrives: SSE framing ({@link SseFraming}), each event's
 * data ({@link ChunkInspector}), and the arrival time of every chunk that carries text, stamped by
 * the caller with {@link System#nanoTime()} when the bytes were read. Everything arriving in one
 * read gets that read's time: the client cannot know more.
 *
 * <p>Reading stops at the end of the stream ({@code [DONE]}) or at its first problem (an error
 * event, a chunk that is not a JSON object, an event too large), which is reported. Pure: no I/O,
 * no clock; one instance per response, on the connection's event loop.
 */
final class StreamReader implements SseFraming.Sink {
  private final SseFraming framing = new SseFraming();
  private final ChunkInspector.Facts facts = new ChunkInspector.Facts();
  private byte[] scratch = new byte[1024];
  private long[] textNanos;
  private int textCount;
  // where each text chunk ends in the kept answer (>= 0) or thinking (-1 - end); null: none kept
  private int[] textEnds;
  private int events;
  private Integer promptTokens;
  private Integer completionTokens;
  private Integer reasoningTokens;
  private Integer cachedTokens;
  private int firstOutput = -1;
  private int reasoningChunks;
  private String finishReason;
  private ServerTimings timings;
  private boolean done;
  private String error;
  private long readNanos;

  /**
   * @param expectedTextChunks the stream's likely number of text chunks (sizes the first array)
   */
  StreamReader(int expectedTextChunks) {
    this(expectedTextChunks, false);
  }

  /**
   * @param keepAnswer whether to keep the generated text ({@link ParsedStream#answer()}) and the
   *     thinking ({@link ParsedStream#reasoningText()})
   */
  StreamReader(int expectedTextChunks, boolean keepAnswer) {
    textNanos = new long[Math.max(8, Math.min(expectedTextChunks + 2, 1 << 16))];
    facts.answer = keepAnswer ? new StringBuilder() : null;
    facts.reasoning = keepAnswer ? new StringBuilder() : null;
    facts.toolCalls = keepAnswer ? new ToolCallParts() : null;
    textEnds = keepAnswer ? new int[textNanos.length] : null;
  }

  /**
   * The next bytes of the body, read at {@code nanos}.
   *
   * @return whether the stream has ended, cleanly or not ({@link #done()} / {@link #error()})
   */
  boolean feed(byte[] bytes, int offset, int length, long nanos) {
    if (ended()) {
      return true;
    }
    readNanos = nanos;
    if (!framing.feed(bytes, offset, length, this)) {
      error = "an SSE event larger than " + (SseFraming.MAX_EVENT_BYTES >> 20) + " MB";
    }
    return ended();
  }

  /** As {@link #feed(byte[], int, int, long)}, from a Netty buffer (its reader index is kept). */
  boolean feed(ByteBuf buf, long nanos) {
    int n = buf.readableBytes();
    if (buf.hasArray()) {
      return feed(buf.array(), buf.arrayOffset() + buf.readerIndex(), n, nanos);
    }
    if (scratch.length < n) {
      scratch = new byte[Math.max(n, scratch.length * 2)];
    }
    buf.getBytes(buf.readerIndex(), scratch, 0, n);
    return feed(scratch, 0, n, nanos);
  }

  @Override
  public void onData(byte[] data, int length) {
    if (ended()) {
      return;
    }
    events++;
    ChunkInspector.inspect(data, length, facts);
    if (facts.error != null) {
      error = facts.error;
      return;
    }
    if (facts.hasUsage) {
      promptTokens = facts.promptTokens;
      completionTokens = facts.completionTokens;
      reasoningTokens = facts.reasoningTokens;
    }
    if (facts.timings != null) {
      timings = facts.timings;
    }
    if (facts.cachedTokens != null) {
      cachedTokens = facts.cachedTokens;
    }
    if (facts.finishReason != null) {
      finishReason = facts.finishReason;
    }
    if (facts.done) { // [DONE], or a Responses stream's last event with its usage
      done = true;
      return;
    }
    if (facts.text) {
      if (textCount == textNanos.length) {
        textNanos = Arrays.copyOf(textNanos, textCount * 2);
        textEnds = textEnds == null ? null : Arrays.copyOf(textEnds, textCount * 2);
      }
      if (textEnds != null) {
        textEnds[textCount] =
            facts.outputText ? facts.answer.length() : -1 - facts.reasoning.length();
      }
      if (facts.outputText) {
        if (firstOutput < 0) {
          firstOutput = textCount;
        }
      } else {
        reasoningChunks++;
      }
      textNanos[textCount++] = readNanos;
    }
  }

  boolean ended() {
    return done || error != null;
  }

  boolean done() {
    return done;
  }

  String error() {
    return error;
  }

  int events() {
    return events;
  }

  /** What was read so far. The arrival array is shared, not copied: read it before feeding more. */
  ParsedStream result() {
    return new ParsedStream(
        new ParsedStream.TextChunks(
            textNanos,
            textCount,
            firstOutput,
            reasoningChunks,
            facts.answer == null ? null : facts.answer.toString(),
            facts.reasoning == null || facts.reasoning.length() == 0
                ? null
                : facts.reasoning.toString(),
            facts.toolCalls == null ? List.of() : facts.toolCalls.calls(),
            textEnds),
        new ParsedStream.Usage(promptTokens, completionTokens, reasoningTokens, cachedTokens),
        done,
        error,
        finishReason,
        timings);
  }
}
