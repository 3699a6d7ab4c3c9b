package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Where a record's input or output token count came from when not the server's usage: {@link
 * RequestRecord#TOKENIZER} (the local tokenizer) or, for output, {@link RequestRecord#CHUNKS} (the
 * text chunks, an estimate). Written to {@code requests.jsonl} as {@code "input_tokens_from"} and
 * {@code "output_tokens_from"}, each only when not usage. Two parts of one kind: the file puts the
 * cached tokens and the reasoning between them.
 */
final class TokensFrom extends RecordPart.OneField<String> {

  /** Where the input tokens came from. */
  static final RecordPart<String> INPUT = new TokensFrom("input_tokens_from");

  /** Where the output tokens came from. */
  static final RecordPart<String> OUTPUT = new TokensFrom("output_tokens_from");

  private TokensFrom(String field) {
    super(field);
  }

  /** One shared instance of each source: every record of a run names the same one or two. */
  @Override
  String kept(String from) {
    return SharedTexts.shared(from);
  }

  @Override
  String read(JsonParser p, JsonToken t, String name) throws IOException {
    return JsonIn.text(p, t, name);
  }

  @Override
  void writeValue(String from, JsonOut out) throws IOException {
    out.text(from);
  }
}
