package io.github.llmbench.capture;

import io.github.llmbench.records.CachedTokens;
import io.github.llmbench.records.ChunkTokenCounts;
import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.Reasoning;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.Route;
import io.github.llmbench.records.SlotIdle;

/**
 * Turns one request's parsed stream into its {@link RequestRecord}: the per-request metric
 * formulas, as vLLM's serving benchmark defines them except where noted in docs/metrics.md. Times
 * come from {@link System#nanoTime()} (monotonic, as vLLM's {@code time.perf_counter()}) and are
 * written in milliseconds with 3 decimals.
 *
 * <ul>
 *   <li>TTFT = first chunk carrying text - t0 (vLLM starts at the first chunk with choices, which
 *       for chat is the empty role chunk);
 *   <li>ITL = gaps between consecutive chunks carrying text (per chunk, not per token);
 *   <li>E2EL = last chunk carrying text - t0;
 *   <li>output tokens = {@code usage.completion_tokens}, else the number of text chunks (flagged as
 *       estimated);
 *   <li>TPOT = (E2EL - TTFT) / (output tokens - 1), only when output tokens > 1.
 * </ul>
 */
public final class RequestRecords {

  private RequestRecords() {}

  /**
   * What names a request's record, known as soon as the request is built.
   *
   * @param id unique within the run
   * @param level the level's tag, e.g. {@code c128}
   * @param profile the request's workload profile, or null
   * @param route its server and model in a run over several, or null
   */
  public record Labels(String id, String level, String profile, Route route) {}

  /**
   * What is known of a request when it is sent.
   *
   * @param origin its conversation and turn, or set send time, or injector; null for none
   * @param t0Nanos just before the request was handed to the HTTP client
   * @param countedInputTokens the prompt's tokens by a local tokenizer, used when the stream has no
   *     usage; null when unknown
   * @param slotIdleMicros how long its user's slot stood idle before t0, since the user's previous
   *     request ended; {@link RequestRecord#ABSENT} for a user's first
   */
  public record Sent(
      Labels labels,
      RequestOrigin origin,
      long t0Nanos,
      Integer countedInputTokens,
      long slotIdleMicros) {
    /** A request whose user sent none before it. */
    public Sent(Labels labels, RequestOrigin origin, long t0Nanos, Integer countedInputTokens) {
      this(labels, origin, t0Nanos, countedInputTokens, RequestRecord.ABSENT);
    }

    /** A request to the run's one server and model. */
    public Sent(
        String id,
        String level,
        String profile,
        RequestOrigin origin,
        long t0Nanos,
        Integer countedInputTokens) {
      this(new Labels(id, level, profile, null), origin, t0Nanos, countedInputTokens);
    }

    /** A request with no origin and no counted prompt (tests). */
    public Sent(String id, String level, String profile, long t0Nanos) {
      this(id, level, profile, null, t0Nanos, null);
    }

    public String id() {
      return labels.id();
    }

    public String level() {
      return labels.level();
    }
  }

  /** The record of a request to a generating endpoint; see {@link #builder} for the arguments. */
  public static RequestRecord of(
      Sent sent,
      long endNanos,
      ParsedStream stream,
      String failure,
      Integer httpStatus,
      TokenCounter outputCounter) {
    return builder(sent, endNanos, stream, failure, httpStatus, outputCounter).build();
  }

  /**
   * The record of a request, filled from what was known when it was sent and what its stream said,
   * for the caller to add what it alone knows ({@link RequestRecord.Builder#figures}) and build
   * once.
   *
   * @param endNanos when the request ended (end of the response, failure or timeout)
   * @param failure why the request failed outside the stream's content (HTTP status, timeout, cut
   *     stream), or null
   * @param httpStatus the status when known
   * @param outputCounter counts the streamed text's tokens when the stream has no usage (and its
   *     text was kept: a local tokenizer), else null: output tokens are then the chunk count, an
   *     estimate
   */
  public static RequestRecord.Builder builder(
      Sent sent,
      long endNanos,
      ParsedStream stream,
      String failure,
      Integer httpStatus,
      TokenCounter outputCounter) {
    long t0Nanos = sent.t0Nanos();
    Integer countedInputTokens = sent.countedInputTokens();
    long startMs = ClockAnchor.epochMs(t0Nanos);
    Labels labels = sent.labels();
    RequestRecord.Builder record =
        RequestRecord.builder()
            .id(labels.id())
            .level(labels.level())
            .profile(labels.profile())
            .route(labels.route())
            .origin(sent.origin())
            .part(SlotIdle.PART, sent.slotIdleMicros())
            .startMs(startMs);
    String error = failure != null ? failure : stream.error();
    if (error == null && stream.textCount() == 0) {
      error = "no generated text in the stream";
    }
    if (error != null) {
      return record
          .endMs(Math.max(ClockAnchor.epochMs(endNanos), startMs))
          .ok(false)
          .error(error)
          .httpStatus(httpStatus)
          .inputTokens(stream.promptTokens());
    }
    long[] arrivals = stream.textArrivalNanos();
    int n = stream.textCount();
    long first = arrivals[0];
    long last = arrivals[n - 1];
    boolean usage = stream.completionTokens() != null;
    boolean counted = !usage && outputCounter != null && stream.answer() != null;
    int[] chunkTokens = chunkTokens(stream, outputCounter);
    // vLLM's fallback without usage: the streamed text's tokens (the answer's chunks' counts, one
    // encoding for both); else the chunks, an estimate
    int outputTokens =
        usage
            ? stream.completionTokens()
            : counted ? Math.max(1, answerTokens(stream, chunkTokens, outputCounter)) : n;
    boolean inputCounted = stream.promptTokens() == null && countedInputTokens != null;
    // TTFT, then every chunk's offset from the first, rounded to the µs once each: the ITLs then
    // add up exactly to E2EL - TTFT, as they do on a server's clock.
    long ttftMicros = ItlSeries.nanosToMicros(first - t0Nanos);
    long e2elMicros = ttftMicros + ItlSeries.nanosToMicros(last - first);
    long tpotMicros =
        outputTokens > 1
            ? Math.round((e2elMicros - ttftMicros) / (double) (outputTokens - 1))
            : RequestRecord.ABSENT;
    return record
        .endMs(ClockAnchor.epochMs(Math.max(endNanos, last)))
        .ok(true)
        .ttftMicros(ttftMicros)
        .tpotMicros(tpotMicros)
        .e2elMicros(e2elMicros)
        .itl(ItlSeries.fromArrivalNanos(arrivals, n))
        .inputTokens(inputCounted ? countedInputTokens : stream.promptTokens())
        .inputTokensFrom(inputCounted ? RequestRecord.TOKENIZER : null)
        .part(CachedTokens.PART, stream.cachedTokens())
        .outputTokens(outputTokens)
        .outputTokensEstimated(!usage && !counted)
        .outputTokensFrom(usage ? null : counted ? RequestRecord.TOKENIZER : RequestRecord.CHUNKS)
        .httpStatus(httpStatus == null ? 200 : httpStatus)
        .serverTimings(stream.serverTimings())
        .reasoning(reasoning(stream, t0Nanos, outputCounter))
        .finishReason(stream.finishReason())
        .part(ChunkTokenCounts.PART, chunkTokens);
  }

  /**
   * The answer's tokens: the sum of its chunks' counts where they were counted (every token of its
   * one encoding falls in a chunk), else a count of the whole answer.
   */
  private static int answerTokens(ParsedStream stream, int[] chunkTokens, TokenCounter counter) {
    int[] ends = stream.textEnds();
    if (chunkTokens == null || stream.firstOutput() < 0) {
      return counter.count(stream.answer());
    }
    int sum = 0;
    for (int i = 0; i < chunkTokens.length; i++) {
      sum += ends[i] >= 0 ? chunkTokens[i] : 0;
    }
    return sum;
  }

  /**
   * Each text chunk's tokens, counted with the local tokenizer over the kept answer and thinking
   * (one encoding of each), null without a tokenizer or kept text.
   */
  static int[] chunkTokens(ParsedStream stream, TokenCounter counter) {
    int[] ends = stream.textEnds();
    int n = stream.textCount();
    if (counter == null || ends == null || n == 0 || stream.answer() == null) {
      return null;
    }
    int answers = 0;
    for (int i = 0; i < n; i++) {
      answers += ends[i] >= 0 ? 1 : 0;
    }
    int[] answerEnds = new int[answers];
    int[] thinkingEnds = new int[n - answers];
    for (int i = 0, a = 0, r = 0; i < n; i++) {
      if (ends[i] >= 0) {
        answerEnds[a++] = ends[i];
      } else {
        thinkingEnds[r++] = -1 - ends[i];
      }
    }
    int[] answerTokens = counter.perChunk(stream.answer(), answerEnds);
    String thinking = stream.reasoningText();
    int[] thinkingTokens =
        thinking == null ? new int[thinkingEnds.length] : counter.perChunk(thinking, thinkingEnds);
    int[] out = new int[n];
    for (int i = 0, a = 0, r = 0; i < n; i++) {
      out[i] = ends[i] >= 0 ? answerTokens[a++] : thinkingTokens[r++];
    }
    return out;
  }

  /**
   * What a stream said before its answer, null when no chunk carried reasoning: the first answer
   * chunk's arrival (TTFO), and the reasoning tokens from the usage, else the thinking text counted
   * with the local tokenizer ({@code -Dtokenizer}), else the reasoning chunks.
   */
  private static Reasoning reasoning(ParsedStream stream, long t0Nanos, TokenCounter counter) {
    if (stream.reasoningChunks() == 0 && stream.reasoningTokens() == null) {
      return null;
    }
    int at = stream.firstOutput();
    long ttfo =
        at < 0
            ? RequestRecord.ABSENT
            : ItlSeries.nanosToMicros(stream.textArrivalNanos()[at] - t0Nanos);
    if (stream.reasoningTokens() != null) {
      return new Reasoning(ttfo, stream.reasoningTokens(), Reasoning.USAGE);
    }
    if (counter != null && stream.reasoningText() != null) {
      return new Reasoning(ttfo, counter.count(stream.reasoningText()), Reasoning.TOKENIZER);
    }
    return new Reasoning(ttfo, stream.reasoningChunks(), Reasoning.CHUNKS);
  }
}
