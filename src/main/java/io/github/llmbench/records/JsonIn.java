package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How the values of {@code requests.jsonl} are read, strict about types: integers for counts and
 * epoch ms, numbers or null for latencies, strings or null for texts, true/false for flags; a value
 * of another type is an {@link IllegalArgumentException} naming the field. Each method takes the
 * parser at the value's first token {@code t}.
 */
final class JsonIn {

  /** Returned by {@link #parseMillis} for a text it does not read itself. */
  static final long NOT_SIMPLE = Long.MIN_VALUE + 1;

  /** What {@link #intOrAbsent} returns for null. */
  static final int NO_INT = Integer.MIN_VALUE;

  private JsonIn() {}

  /**
   * A latency in ms as µs, {@link RequestRecord#ABSENT} for null. A number with up to 3 decimals is
   * read without {@code Double.parseDouble} (it is exact in µs); others (older files, exponents)
   * are parsed and rounded to the nearest µs.
   */
  static long micros(JsonParser p, JsonToken t, String name) throws IOException {
    switch (t) {
      case VALUE_NULL:
        return RequestRecord.ABSENT;
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        long us = parseMillis(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        return us != NOT_SIMPLE ? us : ItlSeries.millisToMicros(p.getDoubleValue(), name);
      default:
        throw wrongType(name, "a number of ms", t);
    }
  }

  /**
   * A JSON number of ms as µs when it has at most 15 integer digits and at most 3 decimals, no
   * exponent (what {@link JsonOut} writes): the exact value, which is also {@code Math.round(parsed
   * * 1000)} for any duration below a year (far beyond, the double's own rounding can be off by
   * ulps). Anything else gives {@link #NOT_SIMPLE}.
   */
  static long parseMillis(char[] s, int off, int len) {
    int i = off;
    int end = off + len;
    boolean negative = i < end && s[i] == '-';
    if (negative) {
      i++;
    }
    long whole = 0;
    int wholeDigits = 0;
    while (i < end && s[i] >= '0' && s[i] <= '9') {
      whole = whole * 10 + (s[i++] - '0');
      if (++wholeDigits > 15) {
        return NOT_SIMPLE;
      }
    }
    if (wholeDigits == 0) {
      return NOT_SIMPLE;
    }
    long frac = 0;
    int fracDigits = 0;
    if (i < end && s[i] == '.') {
      i++;
      while (i < end && s[i] >= '0' && s[i] <= '9') {
        if (++fracDigits > 3) {
          return NOT_SIMPLE;
        }
        frac = frac * 10 + (s[i++] - '0');
      }
      if (fracDigits == 0) {
        return NOT_SIMPLE;
      }
    }
    if (i != end) {
      return NOT_SIMPLE; // an exponent
    }
    for (int k = fracDigits; k < 3; k++) {
      frac *= 10;
    }
    long us = whole * 1000 + frac;
    if (us > ItlSeries.MAX_ABS_MICROS) {
      return NOT_SIMPLE; // let millisToMicros reject it with its message
    }
    return negative ? -us : us;
  }

  /** An array of whole numbers, or null. */
  static int[] ints(JsonParser p, JsonToken t, String name) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.START_ARRAY) {
      throw wrongType(name, "an array of whole numbers", t);
    }
    int[] out = new int[16];
    int n = 0;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != JsonToken.VALUE_NUMBER_INT) {
        throw wrongType(name + "[" + n + "]", "a whole number", t);
      }
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = p.getIntValue();
    }
    return Arrays.copyOf(out, n);
  }

  static List<String> texts(JsonParser p, JsonToken t, String name) throws IOException {
    if (t != JsonToken.START_ARRAY) {
      throw wrongType(name, "an array of strings", t);
    }
    List<String> out = new ArrayList<>();
    JsonToken e;
    while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
      if (e != JsonToken.VALUE_STRING) {
        throw wrongType(name, "an array of strings", e);
      }
      out.add(p.getText());
    }
    return List.copyOf(out);
  }

  static String text(JsonParser p, JsonToken t, String name) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_STRING) {
      throw wrongType(name, "a string", t);
    }
    return p.getText();
  }

  static long longValue(JsonParser p, JsonToken t, String name) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw wrongType(name, "an integer", t);
    }
    return p.getLongValue();
  }

  /** An integer, {@link #NO_INT} for null (which no count may be). */
  static int intOrAbsent(JsonParser p, JsonToken t, String name) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return NO_INT;
    }
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw wrongType(name, "an integer", t);
    }
    int v = p.getIntValue();
    if (v == NO_INT) {
      throw new IllegalArgumentException("field '" + name + "' cannot be " + v);
    }
    return v;
  }

  /** An integer field's value, {@code none} for null. */
  static int intOr(JsonParser p, JsonToken t, String name, int none) throws IOException {
    int v = intOrAbsent(p, t, name);
    return v == NO_INT ? none : v;
  }

  static boolean bool(JsonToken t, String name) {
    if (t == JsonToken.VALUE_TRUE) {
      return true;
    }
    if (t == JsonToken.VALUE_FALSE) {
      return false;
    }
    throw wrongType(name, "true or false", t);
  }

  static IllegalArgumentException missing(String field) {
    return new IllegalArgumentException("missing field '" + field + "'");
  }

  static IllegalArgumentException wrongType(String field, String expected, JsonToken t) {
    return new IllegalArgumentException(
        "field '" + field + "' must be " + expected + ", not " + describe(t));
  }

  private static String describe(JsonToken t) {
    return switch (t) {
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      case START_ARRAY -> "an array";
      case START_OBJECT -> "an object";
      default -> String.valueOf(t);
    };
  }
}
