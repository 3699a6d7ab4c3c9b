package io.github.llmbench.records;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts a {@link RequestRecord} may hold, in the order {@code requests.jsonl} writes them after
 * the core: the one list a new part is added to. The order is the file's, so a part added at the
 * end keeps every older line byte for byte.
 */
final class RecordParts {

  static final List<RecordPart<?>> ALL =
      List.of(
          ServerTimings.PART,
          RequestOrigin.PART,
          TokensFrom.INPUT,
          CachedTokens.PART,
          Reasoning.PART,
          TokensFrom.OUTPUT,
          FinishReasons.PART,
          SlotIdle.PART,
          ChunkTokenCounts.PART,
          Cancelled.PART,
          Pooling.PART,
          Route.PART);

  /** The part that reads each field name. */
  private static final Map<String, RecordPart<?>> BY_FIELD = new HashMap<>();

  static {
    if (ALL.size() > Integer.SIZE) {
      throw new IllegalStateException("a record marks its parts in an int: at most 32");
    }
    for (int i = 0; i < ALL.size(); i++) {
      RecordPart<?> part = ALL.get(i);
      part.numbered(i);
      for (String field : part.fields()) {
        if (BY_FIELD.put(field, part) != null) {
          throw new IllegalStateException("two parts read '" + field + "'");
        }
      }
    }
  }

  /** The parts of a record that has none. */
  private static final Object[] NONE = {};

  private RecordParts() {}

  // A record keeps its parts as the bits of those it has and their values in the list's order,
  // without a slot for the others; a builder keeps a slot for each.

  /** The bits of the parts a builder's slots hold. */
  static int held(Object[] slots) {
    int held = 0;
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] != null) {
        held |= 1 << i;
      }
    }
    return held;
  }

  /** The values of a builder's slots that are set, in order. */
  static Object[] compact(Object[] slots) {
    int count = Integer.bitCount(held(slots));
    if (count == 0) {
      return NONE;
    }
    Object[] values = new Object[count];
    for (int i = 0, next = 0; next < count; i++) {
      if (slots[i] != null) {
        values[next++] = slots[i];
      }
    }
    return values;
  }

  /** The value of part {@code index} among a record's values, or null. */
  static Object slot(int held, Object[] values, int index) {
    int bit = 1 << index;
    return (held & bit) == 0 ? null : values[Integer.bitCount(held & (bit - 1))];
  }

  /** A record's values back into a builder's slots. */
  static void expand(int held, Object[] values, Object[] slots) {
    for (int i = 0, next = 0; i < slots.length; i++) {
      if ((held & (1 << i)) != 0) {
        slots[i] = values[next++];
      }
    }
  }

  /** The part that reads field {@code name}, or null (a core field, or one of a newer writer). */
  static RecordPart<?> reading(String name) {
    return BY_FIELD.get(name);
  }
}
