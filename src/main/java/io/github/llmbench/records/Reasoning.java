package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

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

  /** A record's reasoning; a line has one when it has its time or its count. */
  public static final RecordPart<Reasoning> PART =
      new RecordPart<>("reasoning", "ttfo_ms", "reasoning_tokens", "reasoning_tokens_from") {
        @Override
        void write(Reasoning r, JsonOut out) throws IOException {
          out.millis("ttfo_ms", r.ttfoMicros());
          out.number("reasoning_tokens", r.tokens());
          out.text("reasoning_tokens_from", r.tokensFrom());
        }

        @Override
        Reader<Reasoning> reader() {
          return new ReasoningReader();
        }
      };

  /** The time to the first output token in ms, or null when it never answered. */
  public Double ttfoMs() {
    return ttfoMicros == RequestRecord.ABSENT ? null : ttfoMicros / 1000.0;
  }

  /** One line's reasoning fields; the source alone makes none. */
  private static final class ReasoningReader implements RecordPart.Reader<Reasoning> {
    private boolean reasoned;
    private long ttfoMicros;
    private int tokens;
    private String from;

    ReasoningReader() {
      reset();
    }

    @Override
    public void read(String name, JsonParser p, JsonToken t) throws IOException {
      switch (name) {
        case "ttfo_ms" -> {
          ttfoMicros = JsonIn.micros(p, t, name);
          reasoned = true;
        }
        case "reasoning_tokens" -> {
          tokens = JsonIn.intOr(p, t, name, 0);
          reasoned = true;
        }
        default -> from = JsonIn.text(p, t, name);
      }
    }

    @Override
    public Reasoning value() {
      return reasoned ? new Reasoning(ttfoMicros, tokens, from == null ? CHUNKS : from) : null;
    }

    @Override
    public void reset() {
      reasoned = false;
      ttfoMicros = RequestRecord.ABSENT;
      tokens = 0;
      from = null;
    }
  }
}
