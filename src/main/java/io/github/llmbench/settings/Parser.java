package io.github.llmbench.settings;

import io.github.llmbench.core.Statistic;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.DoublePredicate;
import java.util.function.Supplier;

/**
 * Turns a setting's text (trimmed, not empty) into its value, or throws the one-line {@link
 * SettingsException} that names the property, the value and what is accepted.
 */
@FunctionalInterface
public interface Parser<T> {

  T parse(String name, String raw);

  /** The text as given. */
  static Parser<String> text() {
    return (name, raw) -> raw;
  }

  static Parser<Integer> positiveInt(int max) {
    return wholeNumber(1, max);
  }

  static Parser<Integer> nonNegativeInt(int max) {
    return wholeNumber(0, max);
  }

  private static Parser<Integer> wholeNumber(int min, int max) {
    return (name, raw) -> {
      try {
        long v = asciiLong(raw);
        if (v >= min && v <= max) {
          return (int) v;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw SettingsException.invalid(name, raw, "a whole number from " + min + " to " + max);
    };
  }

  /**
   * A whole number in ASCII digits, an optional sign before them. {@link Long#parseLong} alone
   * takes any script's digits ({@code "\u0663"}, Arabic-Indic 3, reads as 3), which a setting
   * written in another keyboard layout could pass unseen.
   *
   * @throws NumberFormatException for anything else, or a number out of {@code long}'s range
   */
  static long asciiLong(String raw) {
    if (!raw.matches("[+-]?[0-9]+")) {
      throw new NumberFormatException("not ASCII digits: " + raw);
    }
    return Long.parseLong(raw);
  }

  /** {@link #asciiLong} for an {@code int}: out of its range is a {@link NumberFormatException}. */
  static int asciiInt(String raw) {
    long v = asciiLong(raw);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new NumberFormatException("out of range: " + raw);
    }
    return (int) v;
  }

  static Parser<Long> anyLong() {
    return (name, raw) -> {
      try {
        return asciiLong(raw);
      } catch (NumberFormatException e) {
        throw SettingsException.invalid(name, raw, "a whole number");
      }
    };
  }

  static Parser<Double> positiveDouble() {
    return number(v -> v > 0, "a number above 0");
  }

  static Parser<Double> nonNegativeSeconds() {
    return number(v -> v >= 0, "a number of seconds from 0");
  }

  static Parser<Double> fraction() {
    return number(v -> v >= 0 && v < 1, "a number from 0 up to (not including) 1");
  }

  /** A finite number the test accepts. */
  static Parser<Double> number(DoublePredicate accepts, String accepted) {
    return (name, raw) -> {
      try {
        double v = Double.parseDouble(raw);
        if (Double.isFinite(v) && accepts.test(v)) {
          return v;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw SettingsException.invalid(name, raw, accepted);
    };
  }

  /** Whole numbers from 1 to {@code max}, separated by commas. */
  static Parser<List<Integer>> intList(int max) {
    return intList(1, max);
  }

  /** Whole numbers from {@code min} to {@code max}, separated by commas. */
  static Parser<List<Integer>> intList(int min, int max) {
    return (name, raw) -> {
      String accepted = "whole numbers from " + min + " to " + max + ", separated by commas";
      List<Integer> out = new ArrayList<>();
      for (String part : raw.split(",", -1)) {
        try {
          long v = asciiLong(part.trim());
          if (v < min || v > max) {
            throw SettingsException.invalid(name, raw, accepted);
          }
          out.add((int) v);
        } catch (NumberFormatException e) {
          throw SettingsException.invalid(name, raw, accepted);
        }
      }
      return List.copyOf(out);
    };
  }

  /** Numbers above 0, separated by commas. */
  static Parser<List<Double>> positiveNumbers() {
    return (name, raw) -> {
      List<Double> out = new ArrayList<>();
      for (String part : raw.split(",", -1)) {
        String p = part.trim();
        double v = p.matches("[0-9]+(\\.[0-9]+)?") ? Double.parseDouble(p) : Double.NaN;
        if (!(v > 0)) {
          throw SettingsException.invalid(name, raw, "numbers above 0, separated by commas");
        }
        out.add(v);
      }
      return List.copyOf(out);
    };
  }

  /**
   * Latency percentiles as {@code vllm bench serve --metric-percentiles} takes them ({@code
   * 50,90,95,99,99.9}): plain numbers above 0 and below 100 (0 and 100 are the min and max, which
   * have no rows), each once, in the order given.
   */
  static Parser<List<Double>> percentiles() {
    return (name, raw) -> {
      List<Double> out = new ArrayList<>();
      for (String part : raw.split(",", -1)) {
        String p = part.trim();
        // digits only: Double.parseDouble would take NaN, 1e1, 0x1p3 and 99d
        double v = p.matches("[0-9]{1,3}(\\.[0-9]+)?") ? Double.parseDouble(p) : Double.NaN;
        if (!Statistic.isPercentile(v) || out.contains(v)) {
          throw SettingsException.invalid(name, raw, PERCENTILES_ACCEPTED);
        }
        out.add(v);
      }
      return List.copyOf(out);
    };
  }

  /** What {@link #percentiles()} accepts, in its messages and the help. */
  String PERCENTILES_ACCEPTED =
      "percentiles above 0 and below 100, each once, separated by commas (e.g. 50,90,95,99,99.9)";

  /**
   * One of the values (read when parsing: the catalog's ids, say), named in order in the message.
   */
  static Parser<String> oneOf(Supplier<Collection<String>> values) {
    return (name, raw) -> {
      Collection<String> accepted = values.get();
      if (!accepted.contains(raw)) {
        throw SettingsException.invalid(
            name, raw, "one of " + String.join(", ", new TreeSet<>(accepted)));
      }
      return raw;
    };
  }

  /** One of the words, with the message's own wording of them ({@code sequential or mixed}). */
  static Parser<String> word(List<String> words, String accepted) {
    return (name, raw) -> {
      if (!words.contains(raw)) {
        throw SettingsException.invalid(name, raw, accepted);
      }
      return raw;
    };
  }

  /** {@code true} or {@code false}, in any case. */
  static Parser<Boolean> trueOrFalse() {
    return (name, raw) ->
        switch (raw.toLowerCase(Locale.ROOT)) {
          case "true" -> true;
          case "false" -> false;
          default -> throw SettingsException.invalid(name, raw, "true or false");
        };
  }
}
