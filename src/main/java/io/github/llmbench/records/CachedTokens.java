package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The prompt tokens the server's prefix cache served, where it said ({@code
 * usage.prompt_tokens_details.cached_tokens}, llama.cpp's {@code timings.cache_n}). Written to
 * {@code requests.jsonl} as {@code "cached_tokens"}, only when the server said.
 */
public final class CachedTokens {

  /** A record's cached prompt tokens; set with {@code builder.part(PART, n)}, null for none. */
  public static final RecordPart<Integer> PART =
      new RecordPart.OneField<>("cached_tokens") {
        @Override
        Integer kept(Integer n) {
          if (n != null && n == JsonIn.NO_INT) {
            throw new IllegalArgumentException("cached_tokens cannot be " + n);
          }
          return n;
        }

        @Override
        Integer read(JsonParser p, JsonToken t, String name) throws IOException {
          int n = JsonIn.intOrAbsent(p, t, name);
          return n == JsonIn.NO_INT ? null : n;
        }

        @Override
        void writeValue(Integer n, JsonOut out) throws IOException {
          out.number(n);
        }
      };

  private CachedTokens() {}

  /** The record's cached prompt tokens, null when the server did not say. */
  public static Integer of(RequestRecord r) {
    return r.part(PART);
  }
}
