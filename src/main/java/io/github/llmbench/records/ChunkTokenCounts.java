package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Arrays;

/**
 * Each text chunk's tokens (one count per chunk), counted with the local tokenizer ({@code
 * -Dtokenizer}). Written to {@code requests.jsonl} as {@code "chunk_tokens":[...]}, only where
 * counted.
 */
public final class ChunkTokenCounts {

  /** A record's tokens per chunk; set with {@code builder.part(PART, counts)}, null for none. */
  public static final RecordPart<int[]> PART =
      new RecordPart.OneField<>("chunk_tokens") {
        /** Copied in and out: the record stays immutable. */
        @Override
        int[] kept(int[] counts) {
          return counts == null ? null : counts.clone();
        }

        @Override
        int[] handedOut(int[] kept) {
          return kept.clone();
        }

        @Override
        boolean same(int[] a, int[] b) {
          return Arrays.equals(a, b);
        }

        @Override
        String text(int[] kept) {
          return Arrays.toString(kept);
        }

        @Override
        int[] read(JsonParser p, JsonToken t, String name) throws IOException {
          return JsonIn.ints(p, t, name);
        }

        @Override
        void writeValue(int[] counts, JsonOut out) throws IOException {
          out.ints(counts);
        }
      };

  private ChunkTokenCounts() {}

  /** A copy of the record's tokens per chunk, null when not counted. */
  public static int[] of(RequestRecord r) {
    return r.part(PART);
  }
}
