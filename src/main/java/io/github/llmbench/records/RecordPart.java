package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * One optional group of a {@link RequestRecord}'s fields beyond its measured core (its origin, its
 * reasoning, its route, ...): the value a record holds for it, and the JSON fields of {@code
 * requests.jsonl} it writes and reads. A record holds only the parts it has; {@link
 * RequestRecordJson} writes the core, then each part it holds in the order of {@link
 * RecordParts#ALL}, and reads each field it does not know as the core's through the part that owns
 * its name.
 *
 * <p>A new per-request field is a new part (its own file in this package, registered in that list):
 * the record and its JSON carry it without naming it. It is set by the capture with {@link
 * RequestRecord.Builder#part} and read with {@link RequestRecord#part}, usually through the typed
 * helpers of its file.
 *
 * @param <V> what a record holds for it: a value nobody changes (copied in and out where it is
 *     mutable), never null (null: the record has none)
 */
public abstract class RecordPart<V> {

  /** What it is, for messages: {@code origin}, or its one field's name. */
  private final String name;

  /** Its JSON field names, which no other part and no core field has. */
  private final List<String> fields;

  /**
   * Its place in {@link RecordParts#ALL}, set once by that list as it loads; -1 until then. Not
   * volatile: a thread that sees -1 loads the list, whose class initialisation publishes it.
   */
  private int index = -1;

  /**
   * @param name what it is, for messages
   * @param fields the JSON field names it reads (none for a part derived from the core, which the
   *     file shows but a reader does not need)
   */
  RecordPart(String name, String... fields) {
    this.name = name;
    this.fields = List.of(fields);
  }

  /** The JSON field names it reads. */
  public final List<String> fields() {
    return fields;
  }

  /**
   * What a record keeps when given {@code value}: null for a value that means none (a sentinel, a
   * default), a shared or copied instance, after the checks a setter makes ({@link
   * IllegalArgumentException} for a value out of range).
   */
  V kept(V value) {
    return value;
  }

  /** What {@link RequestRecord#part} hands out of a kept value: a copy where it is mutable. */
  V handedOut(V kept) {
    return kept;
  }

  /** Whether two kept values are the same; arrays compare by content. */
  boolean same(V a, V b) {
    return Objects.equals(a, b);
  }

  /** A kept value as {@link RequestRecord#toString()} shows it. */
  String text(V kept) {
    return String.valueOf(kept);
  }

  /** The record's value for this part, null when it has none; a derived part computes it. */
  V valueIn(RequestRecord r) {
    return r.heldPart(this);
  }

  /** Writes its fields of a value the record has, in the file's order. */
  abstract void write(V value, JsonOut out) throws IOException;

  /** A new reader of its fields, reused line after line; null for a part derived from the core. */
  abstract Reader<V> reader();

  /** Its place in {@link RecordParts#ALL}. */
  final int index() {
    if (index < 0) {
      RecordParts.ALL.size(); // loads the list, which numbers its parts
      if (index < 0) {
        throw new IllegalStateException(
            "a part not registered in RecordParts.ALL: " + name + " " + fields);
      }
    }
    return index;
  }

  /** Called once for each part, by {@link RecordParts} as it loads. */
  final void numbered(int i) {
    if (index >= 0) {
      throw new IllegalStateException("registered twice: " + name);
    }
    index = i;
  }

  @Override
  public String toString() {
    return name;
  }

  /**
   * Reads one part's fields from the lines of a file: {@link #reset()} before each line, {@link
   * #read} for each of its fields the line has, then {@link #value()}.
   */
  interface Reader<V> {
    /** Reads field {@code name}'s value, the parser at its first token {@code t}. */
    void read(String name, JsonParser p, JsonToken t) throws IOException;

    /** The part of the fields read since the last reset; null when they make none. */
    V value();

    /** Forgets the fields of the last line. */
    void reset();
  }

  /** A part of one JSON field, whose reader keeps the last value read. */
  abstract static class OneField<V> extends RecordPart<V> {
    private final String field;

    OneField(String field) {
      super(field, field);
      this.field = field;
    }

    /** The field's value, null when it means none. */
    abstract V read(JsonParser p, JsonToken t, String name) throws IOException;

    /** Writes the value, the field's name already written. */
    abstract void writeValue(V value, JsonOut out) throws IOException;

    @Override
    final void write(V value, JsonOut out) throws IOException {
      out.name(field);
      writeValue(value, out);
    }

    @Override
    final Reader<V> reader() {
      return new Reader<>() {
        private V last;

        @Override
        public void read(String name, JsonParser p, JsonToken t) throws IOException {
          last = OneField.this.read(p, t, name);
        }

        @Override
        public V value() {
          return last;
        }

        @Override
        public void reset() {
          last = null;
        }
      };
    }
  }
}
