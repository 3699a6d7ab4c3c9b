package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.github.llmbench.endpoints.Figures;
import java.io.IOException;

/**
 * The figures of a record whose endpoint pools (embeddings, {@link Figures#POOLED}): written to
 * {@code requests.jsonl} as {@code "pooling":true} (the file's word for it, as before the type),
 * and nothing for {@link Figures#GENERATED}, the default.
 */
final class Pooling extends RecordPart.OneField<Figures> {

  static final RecordPart<Figures> PART = new Pooling();

  private Pooling() {
    super("pooling");
  }

  /** None for the default; the file has a word for pooling alone. */
  @Override
  Figures kept(Figures figures) {
    if (figures == null || figures == Figures.GENERATED) {
      return null;
    }
    if (figures != Figures.POOLED) {
      throw new IllegalArgumentException("requests.jsonl has no field for " + figures);
    }
    return figures;
  }

  @Override
  Figures read(JsonParser p, JsonToken t, String name) {
    return JsonIn.bool(t, name) ? Figures.POOLED : Figures.GENERATED;
  }

  @Override
  void writeValue(Figures figures, JsonOut out) throws IOException {
    out.flag(true);
  }
}
