package io.github.llmbench.records;

import io.github.llmbench.core.Level;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared copies of what repeats across a run's {@link RequestRecord}s (id prefixes, levels,
 * profiles, failure reasons), so a million records hold a handful of strings.
 */
final class SharedTexts {

  private SharedTexts() {}

  /** Id prefixes (such as {@code req-}) and repeated texts are shared up to this many each. */
  private static final int MAX_SHARED = 1024;

  private static final int MAX_PREFIX_LENGTH = 32;
  private static final ConcurrentHashMap<String, String> PREFIXES = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<String, String> TEXTS = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<String, LevelTag> LEVEL_TAGS = new ConcurrentHashMap<>();

  /**
   * A level's tag as recorded, and the level it names (null for a name of a custom simulation's
   * own).
   */
  record LevelTag(String tag, Level level) {
    static LevelTag of(String tag) {
      return new LevelTag(tag, Level.parse(tag).orElse(null));
    }
  }

  /**
   * Where the id's decimal number starts when the id is a short prefix and a number that prints
   * back the same (no leading zero, at most 18 digits); -1 otherwise.
   */
  static int numberStart(String id) {
    if (id == null) {
      return -1;
    }
    int end = id.length();
    int cut = end;
    while (cut > 0 && id.charAt(cut - 1) >= '0' && id.charAt(cut - 1) <= '9') {
      cut--;
    }
    int digits = end - cut;
    if (digits == 0
        || digits > 18
        || cut > MAX_PREFIX_LENGTH
        || (digits > 1 && id.charAt(cut) == '0')) {
      return -1;
    }
    return cut;
  }

  /** The shared copy of an id prefix; null once {@value #MAX_SHARED} prefixes are known. */
  static String sharedPrefix(String prefix) {
    String known = PREFIXES.get(prefix);
    if (known != null) {
      return known;
    }
    if (PREFIXES.size() >= MAX_SHARED) {
      return null;
    }
    known = PREFIXES.putIfAbsent(prefix, prefix);
    return known == null ? prefix : known;
  }

  /** The shared, parsed copy of a level's tag, as {@link #shared} shares texts; null for none. */
  static LevelTag sharedLevel(String tag) {
    if (tag == null) {
      return null;
    }
    LevelTag known = LEVEL_TAGS.get(tag);
    if (known != null) {
      return known;
    }
    LevelTag made = LevelTag.of(shared(tag));
    if (LEVEL_TAGS.size() >= MAX_SHARED) {
      return made;
    }
    known = LEVEL_TAGS.putIfAbsent(made.tag(), made);
    return known == null ? made : known;
  }

  /**
   * The shared copy of a text that repeats across records (a level, a profile, a failure reason),
   * so a million records hold a handful of strings; once {@value #MAX_SHARED} texts are known
   * (reasons that embed details), new ones are kept as they are.
   */
  static String shared(String text) {
    if (text == null) {
      return null;
    }
    String known = TEXTS.get(text);
    if (known != null) {
      return known;
    }
    if (TEXTS.size() >= MAX_SHARED) {
      return text;
    }
    known = TEXTS.putIfAbsent(text, text);
    return known == null ? text : known;
  }
}
