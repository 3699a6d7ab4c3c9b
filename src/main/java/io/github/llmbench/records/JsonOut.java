package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import java.io.IOException;
import java.util.List;

/**
 * Where a record's fields are written: the line's generator with the number forms of {@code
 * requests.jsonl}. Latencies are whole µs written as ms with at most 3 decimals and at least one
 * ({@code 10.0}, {@code 10.03}, {@code 10.003}): the decimal text of the integer, so no double
 * formatting noise such as {@code 10.003000000000002}.
 */
final class JsonOut {
  private final JsonGenerator g;
  private final SerializerProvider provider;

  /** The text of the latency being written (24 chars hold any). */
  private final char[] buf = new char[24];

  JsonOut(JsonGenerator g, SerializerProvider provider) {
    this.g = g;
    this.provider = provider;
  }

  /** The next field's name; its value follows. */
  void name(String name) throws IOException {
    g.writeFieldName(name);
  }

  /** µs as ms with 3 decimals at most, null for {@link RequestRecord#ABSENT}. */
  void millis(long micros) throws IOException {
    if (micros == RequestRecord.ABSENT) {
      g.writeNull();
      return;
    }
    g.writeNumber(buf, 0, formatMillis(micros, buf));
  }

  void millis(String name, long micros) throws IOException {
    g.writeFieldName(name);
    millis(micros);
  }

  void text(String name, String value) throws IOException {
    g.writeStringField(name, value);
  }

  void text(String value) throws IOException {
    g.writeString(value);
  }

  void number(String name, long value) throws IOException {
    g.writeNumberField(name, value);
  }

  void number(long value) throws IOException {
    g.writeNumber(value);
  }

  /** A count, or null. */
  void count(String name, Integer value) throws IOException {
    g.writeFieldName(name);
    if (value == null) {
      g.writeNull();
    } else {
      g.writeNumber(value.intValue());
    }
  }

  void flag(String name, boolean value) throws IOException {
    g.writeBooleanField(name, value);
  }

  void flag(boolean value) throws IOException {
    g.writeBoolean(value);
  }

  void texts(String name, List<String> values) throws IOException {
    g.writeArrayFieldStart(name);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  void ints(int[] values) throws IOException {
    g.writeArray(values, 0, values.length);
  }

  /** Starts an array of {@code size} values, each written with one of the value methods. */
  void startArray(Object of, int size) throws IOException {
    g.writeStartArray(of, size);
  }

  void endArray() throws IOException {
    g.writeEndArray();
  }

  /** A value Jackson writes as its own bean (the server's timings), as the mapper writes it. */
  void bean(Object value) throws IOException {
    provider.defaultSerializeValue(value, g);
  }

  /**
   * Writes µs as a decimal number of ms into {@code buf} (24 chars are enough): the integer part, a
   * point, and the fraction without trailing zeros but with at least one digit.
   *
   * @return the number of chars written
   */
  static int formatMillis(long micros, char[] buf) {
    // |micros| <= 2^52 (ItlSeries.MAX_ABS_MICROS), so the negation below cannot overflow
    long abs = Math.abs(micros);
    long whole = abs / 1000;
    int frac = (int) (abs % 1000);
    int pos = buf.length;
    int fracDigits = 3;
    while (fracDigits > 1 && frac % 10 == 0) {
      frac /= 10;
      fracDigits--;
    }
    for (int i = 0; i < fracDigits; i++) {
      buf[--pos] = (char) ('0' + frac % 10);
      frac /= 10;
    }
    buf[--pos] = '.';
    do {
      buf[--pos] = (char) ('0' + whole % 10);
      whole /= 10;
    } while (whole > 0);
    if (micros < 0) {
      buf[--pos] = '-';
    }
    int len = buf.length - pos;
    System.arraycopy(buf, pos, buf, 0, len);
    return len;
  }
}
