package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The {@code finish_reason} values of OpenAI-compatible streams. A record keeps the stream's last
 * one, one shared instance of each common value, not a string per request; written to {@code
 * requests.jsonl} as {@code "finish_reason"}, only when the stream said one.
 */
public final class FinishReasons {
  /** The answer reached {@code max_tokens} (every answer, where {@code ignore_eos} is honoured). */
  public static final String LENGTH = "length";

  /** The model ended its answer (an end-of-sequence token or a stop string). */
  public static final String STOP = "stop";

  public static final String TOOL_CALLS = "tool_calls";

  /** A record's finish reason. */
  public static final RecordPart<String> PART =
      new RecordPart.OneField<>("finish_reason") {
        @Override
        String kept(String reason) {
          return shared(reason);
        }

        @Override
        String read(JsonParser p, JsonToken t, String name) throws IOException {
          return JsonIn.text(p, t, name);
        }

        @Override
        void writeValue(String reason, JsonOut out) throws IOException {
          out.text(reason);
        }
      };

  private FinishReasons() {}

  /** The shared instance of a common value, else the value itself. */
  static String shared(String reason) {
    if (reason == null) {
      return null;
    }
    return switch (reason) {
      case LENGTH -> LENGTH;
      case STOP -> STOP;
      case TOOL_CALLS -> TOOL_CALLS;
      default -> reason;
    };
  }

  /**
   * Whether an answer ended before its {@code max_tokens} because the model ended it: {@code stop}
   * ({@code eos_token}, as TGI and others say), where a benchmark asked for exact lengths.
   */
  public static boolean endedByModel(String reason) {
    return STOP.equals(reason) || "eos_token".equals(reason);
  }
}
