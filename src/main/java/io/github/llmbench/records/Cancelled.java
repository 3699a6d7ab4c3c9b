package io.github.llmbench.records;

import java.io.IOException;

/**
 * {@code "cancelled":true} in {@code requests.jsonl} for a request the client cancelled on purpose:
 * derived from the record's core (not OK, its error {@link RequestRecord#CANCELLED}), so the file
 * tells it without parsing the error, and not read back (the error says it again).
 */
final class Cancelled extends RecordPart<Boolean> {

  static final RecordPart<Boolean> PART = new Cancelled();

  private Cancelled() {
    super("cancelled"); // no field to read: the error gives it
  }

  @Override
  Boolean kept(Boolean value) {
    throw new UnsupportedOperationException("derived from the error: set it with error()");
  }

  @Override
  Boolean valueIn(RequestRecord r) {
    return r.cancelled() ? Boolean.TRUE : null;
  }

  @Override
  void write(Boolean cancelled, JsonOut out) throws IOException {
    out.flag("cancelled", true);
  }

  @Override
  Reader<Boolean> reader() {
    return null;
  }
}
