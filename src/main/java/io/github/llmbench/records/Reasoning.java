package io.github.llmbench.records;

/**
 * What a reasoning model's stream said before its answer: when the first answer token came and how
 * many tokens it thought. Written to {@code requests.jsonl} as {@code "ttfo_ms"}, {@code
 * "reasoning_tokens"} and {@code "reasoning_tokens_from"}, only for streams that reasoned.
 *
 * @param ttfoMicros time to the first output token (the first answer text after the reasoning),
 *     from t0, in µs; {@link RequestRecord#ABSENT} when the stream never answered
 * @param tokens the reasoning tokens
 * @param tokensFrom {@link #USAGE} ({@code usage.completion_tokens_details.reasoning_tokens}) or
 *     {@link #TOKENIZER} (the thinking text counted with the local tokenizer) or {@link #CHUNKS}
 *     (the reasoning chunks counted, a token each)
 */
public record Reasoning(long ttfoMicros, int tokens, String tokensFrom) {
  public static final String USAGE = "usage";
  public static final String CHUNKS = "chunks";
  public static final String TOKENIZER = "tokenizer";

  /** The time to the first output token in ms, or null when it never answered. */
  public Double ttfoMs() {
    return ttfoMicros == RequestRecord.ABSENT ? null : ttfoMicros / 1000.0;
  }
}
