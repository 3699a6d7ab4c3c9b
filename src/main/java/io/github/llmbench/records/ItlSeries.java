package io.github.llmbench.records;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.RandomAccess;
import java.util.function.LongConsumer;

/**
 * One request's inter-token latencies, immutable and compact: whole microseconds, seen as a {@code
 * List<Double>} of milliseconds ({@code micros / 1000.0}) so that code written for a list of
 * doubles keeps working, with primitive access ({@link #micros(int)}, {@link #forEachMicros},
 * {@link #sumMicros()}) for the loops that visit every chunk of a run.
 *
 * <p>Why this layout: a run keeps every record in memory until its end (1,000,000 requests of 128
 * chunks is 127 million gaps), and a boxed {@code List<Double>} costs about 24 bytes a gap. Here
 * each gap is a {@code char}: its distance in µs from the series' smallest gap (frame of
 * reference), so any series whose gaps lie within 65.534 ms of each other takes 2 bytes a gap,
 * whether they are around 4 ms or around 70 ms. A gap farther away (a stall, a preemption) is an
 * escape char and its value lives in a small sorted side table, 12 bytes each. Measured on
 * synthetic series of 127 gaps, in bytes per gap including array headers: 10 ms +- 0.5 ms 2.14;
 * lognormal around 25 ms with 2% spikes of 80-300 ms 2.64; 70 ms +- 10 ms 2.15. A varint byte[] was
 * 2.14, 3.04 and 3.15 on the same data and has no O(1) {@link #get}; char[]-or-int[] chosen by
 * range was 2.14, 4.05 and 4.16.
 *
 * <p>Values are limited to +-{@value #MAX_ABS_MICROS} µs (about 142 years), so that differences
 * never overflow; negative gaps are kept as they are (a clock that went backwards shows up in the
 * statistics rather than being hidden).
 */
public final class ItlSeries extends AbstractList<Double> implements RandomAccess {

  /** Largest magnitude of a value, in µs: 2^52, so that any difference of two fits a long. */
  public static final long MAX_ABS_MICROS = 1L << 52;

  /** The empty series. */
  public static final ItlSeries EMPTY = new ItlSeries(0L, new char[0], null, null);

  /** Marks a value kept in the side table; offsets from the base are 0 .. ESCAPE - 1. */
  private static final char ESCAPE = Character.MAX_VALUE;

  private final long baseMicros;
  private final char[] offsets;

  /** Indices of the escaped values, ascending; null when there are none. */
  private final int[] farIndex;

  /** The escaped values in µs, in the order of {@link #farIndex}; null when there are none. */
  private final long[] farMicros;

  private ItlSeries(long baseMicros, char[] offsets, int[] farIndex, long[] farMicros) {
    this.baseMicros = baseMicros;
    this.offsets = offsets;
    this.farIndex = farIndex;
    this.farMicros = farMicros;
  }

  /**
   * The first {@code count} values of {@code micros} (copied).
   *
   * @throws IllegalArgumentException when a value's magnitude exceeds {@link #MAX_ABS_MICROS}
   */
  public static ItlSeries ofMicros(long[] micros, int count) {
    if (count < 0 || count > micros.length) {
      throw new IllegalArgumentException("count " + count + " outside 0.." + micros.length);
    }
    if (count == 0) {
      return EMPTY;
    }
    long min = Long.MAX_VALUE;
    int far = 0;
    for (int i = 0; i < count; i++) {
      checkRange(micros[i], i);
      min = Math.min(min, micros[i]);
    }
    for (int i = 0; i < count; i++) {
      if (micros[i] - min >= ESCAPE) {
        far++;
      }
    }
    char[] offsets = new char[count];
    int[] farIndex = far == 0 ? null : new int[far];
    long[] farMicros = far == 0 ? null : new long[far];
    int f = 0;
    for (int i = 0; i < count; i++) {
      long d = micros[i] - min;
      if (d >= ESCAPE) {
        offsets[i] = ESCAPE;
        farIndex[f] = i;
        farMicros[f++] = micros[i];
      } else {
        offsets[i] = (char) d;
      }
    }
    return new ItlSeries(min, offsets, farIndex, farMicros);
  }

  /** The values in µs. */
  public static ItlSeries ofMicros(long... micros) {
    return ofMicros(micros, micros.length);
  }

  /**
   * Milliseconds rounded to the nearest µs ({@code Math.round(ms * 1000)}); an {@code ItlSeries} is
   * returned as it is, null gives the empty series.
   *
   * <p>A null element is rejected (NullPointerException naming its index), as the record's former
   * {@code List.copyOf} did: a gap that is unknown cannot be told apart from one that was never
   * there, and dropping it would shift every later chunk's arrival time.
   *
   * @throws IllegalArgumentException for NaN, an infinity or a magnitude above {@link
   *     #MAX_ABS_MICROS} µs
   */
  public static ItlSeries ofMillis(List<? extends Number> millis) {
    if (millis == null) {
      return EMPTY;
    }
    if (millis instanceof ItlSeries s) {
      return s;
    }
    long[] micros = new long[millis.size()];
    int i = 0;
    for (Number ms : millis) {
      if (ms == null) {
        throw new NullPointerException("itl_ms[" + i + "] is null");
      }
      micros[i] = millisToMicros(ms.doubleValue(), "itl_ms[" + i + "]");
      i++;
    }
    return ofMicros(micros, i);
  }

  /**
   * The gaps between consecutive arrivals, from {@code System.nanoTime()} stamps: {@code
   * arrivalNanos[0 .. count-1]}, in order. Each arrival is first taken relative to the first one
   * and rounded to the nearest µs, and the gaps are the differences of those rounded offsets, so
   * that the gaps add up exactly to the rounded span from the first arrival to the last (rounding
   * each gap on its own would drift by up to 0.5 µs a chunk).
   *
   * @return {@code count - 1} gaps; empty for fewer than two arrivals
   */
  public static ItlSeries fromArrivalNanos(long[] arrivalNanos, int count) {
    if (count < 0 || count > arrivalNanos.length) {
      throw new IllegalArgumentException("count " + count + " outside 0.." + arrivalNanos.length);
    }
    if (count < 2) {
      return EMPTY;
    }
    long[] gaps = new long[count - 1];
    long first = arrivalNanos[0];
    long previous = 0;
    for (int i = 1; i < count; i++) {
      long offset = nanosToMicros(arrivalNanos[i] - first);
      gaps[i - 1] = offset - previous;
      previous = offset;
    }
    return ofMicros(gaps, gaps.length);
  }

  /** Nanoseconds rounded to the nearest µs, a half upwards (as {@code Math.round}). */
  public static long nanosToMicros(long nanos) {
    return Math.floorDiv(nanos + 500, 1000);
  }

  /**
   * Milliseconds to µs, rounded to the nearest ({@code Math.round(ms * 1000)}).
   *
   * @param what how an error names the value
   * @throws IllegalArgumentException for NaN, an infinity or a magnitude above {@link
   *     #MAX_ABS_MICROS} µs
   */
  public static long millisToMicros(double ms, String what) {
    if (!Double.isFinite(ms) || Math.abs(ms) > MAX_ABS_MICROS / 1000.0) {
      throw new IllegalArgumentException(what + " is not a duration in ms: " + ms);
    }
    return Math.round(ms * 1000.0);
  }

  private static void checkRange(long micros, int index) {
    if (micros > MAX_ABS_MICROS || micros < -MAX_ABS_MICROS) {
      throw new IllegalArgumentException(
          "itl[" + index + "] = " + micros + " µs is beyond +-" + MAX_ABS_MICROS + " µs");
    }
  }

  @Override
  public int size() {
    return offsets.length;
  }

  /** The i-th gap in µs: O(1), O(log far values) for one far from the others. */
  public long micros(int i) {
    char c = offsets[i];
    if (c != ESCAPE) {
      return baseMicros + c;
    }
    return farMicros[Arrays.binarySearch(farIndex, i)];
  }

  /** The i-th gap in ms ({@code micros(i) / 1000.0}). */
  @Override
  public Double get(int i) {
    return micros(i) / 1000.0;
  }

  /** The i-th gap in ms, unboxed. */
  public double millis(int i) {
    return micros(i) / 1000.0;
  }

  /** Calls {@code action} with each gap in µs, in order. */
  public void forEachMicros(LongConsumer action) {
    int f = 0;
    for (int i = 0; i < offsets.length; i++) {
      char c = offsets[i];
      action.accept(c != ESCAPE ? baseMicros + c : farMicros[f++]);
    }
  }

  /** The sum of the gaps in µs (exact). */
  public long sumMicros() {
    long sum = 0;
    int f = 0;
    for (int i = 0; i < offsets.length; i++) {
      char c = offsets[i];
      sum += c != ESCAPE ? baseMicros + c : farMicros[f++];
    }
    return sum;
  }

  /** The gaps in µs, a new array. */
  public long[] toMicrosArray() {
    long[] out = new long[offsets.length];
    int f = 0;
    for (int i = 0; i < offsets.length; i++) {
      char c = offsets[i];
      out[i] = c != ESCAPE ? baseMicros + c : farMicros[f++];
    }
    return out;
  }

  /** A primitive cursor over the gaps in µs, in order (no boxing, no binary search). */
  public Cursor cursor() {
    return new Cursor();
  }

  /** Sequential primitive access: {@code while (c.hasNext()) { long us = c.nextMicros(); }}. */
  public final class Cursor {
    private int i;
    private int f;

    private Cursor() {}

    public boolean hasNext() {
      return i < offsets.length;
    }

    public long nextMicros() {
      if (i >= offsets.length) {
        throw new NoSuchElementException();
      }
      char c = offsets[i++];
      return c != ESCAPE ? baseMicros + c : farMicros[f++];
    }
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (o instanceof ItlSeries s) {
      if (s.size() != size()) {
        return false;
      }
      for (int i = 0; i < offsets.length; i++) {
        if (micros(i) != s.micros(i)) {
          return false;
        }
      }
      return true;
    }
    return super.equals(o); // element by element against any other List
  }

  @Override
  public int hashCode() {
    return super.hashCode(); // List's contract: the same as any equal List<Double>
  }
}
