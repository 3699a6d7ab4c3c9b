package io.github.llmbench.telemetry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads the sample lines of a Prometheus {@code /metrics} page: the text exposition format 0.0.4,
 * and OpenMetrics text as far as its sample lines go (vLLM, llama.cpp's llama-server, NVIDIA
 * dcgm-exporter and most exporters write one or the other).
 *
 * <p>Accepted, line by line ({@code \n} or {@code \r\n}):
 *
 * <ul>
 *   <li>blank lines and lines starting with {@code #} ({@code # HELP}, {@code # TYPE}, {@code #
 *       EOF}, comments) are passed over; the metadata is not needed to read values;
 *   <li>a sample {@code name[{label="value",...}] value [timestamp]}: the name matches {@code
 *       [a-zA-Z_:][a-zA-Z0-9_:]*} and is kept as written ({@code x_bucket}, {@code x_total}), label
 *       names match {@code [a-zA-Z_][a-zA-Z0-9_]*}, label values are double-quoted with the escapes
 *       {@code \\}, {@code \"} and {@code \n} decoded (any other escape is kept as written, as
 *       Prometheus itself does); blanks may surround {@code =} and {@code ,}, and a trailing comma
 *       before {@code }} is allowed (dcgm-exporter writes {@code {gpu="0", UUID="..."}});
 *   <li>the value as Go's {@code strconv.ParseFloat} reads decimal text: {@code NaN}, {@code Inf},
 *       {@code +Inf}, {@code -Inf} (any case, also {@code Infinity}), exponents, and integers
 *       beyond {@code long}'s range (as a double);
 *   <li>an optional timestamp, which must be a number and is ignored (the scraper's own clock is
 *       the one that matters), and an OpenMetrics exemplar ({@code # {...} ...}) after it, also
 *       ignored.
 * </ul>
 *
 * <p>Any other line (an unterminated quote, a missing or unreadable value, a bad name, a repeated
 * label, text after the timestamp, Prometheus 3's quoted UTF-8 names, hexadecimal values) is
 * skipped and counted in {@link Parsed#malformedLines}, never thrown: telemetry is scraped beside a
 * load test, and one odd line from an exporter must not cost the other samples of the page, let
 * alone the run. The count lets a caller report that something was skipped.
 *
 * <p>One pass over each line, without regular expressions: a page of some hundred lines scraped
 * every second costs little (about 0.1 ms for 450 lines).
 */
public final class PrometheusText {

  /**
   * One sample line.
   *
   * @param name the metric name as written, e.g. {@code vllm:prompt_tokens_total} or {@code
   *     x_bucket}
   * @param labels its labels in the order written, unmodifiable
   * @param value its value
   */
  public record Sample(String name, Map<String, String> labels, double value) {
    public Sample {
      Objects.requireNonNull(name, "name");
      // a copy, so that a Sample is a value whoever built the map (the parser reuses one)
      labels =
          labels.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }
  }

  /**
   * A parsed page.
   *
   * @param samples the samples in order
   * @param malformedLines lines that were neither comments, blank, nor samples
   */
  public record Parsed(List<Sample> samples, int malformedLines) {
    public Parsed {
      samples = List.copyOf(samples);
    }
  }

  private PrometheusText() {}

  /** Reads every sample line of {@code text}; never throws on its content. */
  public static Parsed parse(String text) {
    Objects.requireNonNull(text, "text");
    LineParser parser = new LineParser(text);
    List<Sample> samples = new ArrayList<>();
    int malformed = 0;
    int start = 0;
    while (true) {
      int newline = text.indexOf('\n', start);
      int end = newline < 0 ? text.length() : newline;
      if (end > start && text.charAt(end - 1) == '\r') {
        end--;
      }
      int first = parser.skipBlanks(start, end);
      if (first < end && text.charAt(first) != '#') {
        Sample sample = parser.sample(first, end);
        if (sample == null) {
          malformed++;
        } else {
          samples.add(sample);
        }
      }
      if (newline < 0) {
        break;
      }
      start = newline + 1;
    }
    return new Parsed(samples, malformed);
  }

  /**
   * Parses sample lines of one text in place; {@link #sample} returns null for a malformed line.
   */
  private static final class LineParser {
    private final String text;
    // reused for every line: the Sample makes its own copy
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final StringBuilder unescaped = new StringBuilder();
    private int pos;
    private int end;

    LineParser(String text) {
      this.text = text;
    }

    Sample sample(int from, int to) {
      pos = from;
      end = to;
      labels.clear();
      String name = identifier(true);
      if (name == null) {
        return null;
      }
      pos = skipBlanks(pos, end);
      if (peek() == '{') {
        if (!labels()) {
          return null;
        }
        pos = skipBlanks(pos, end);
      }
      double value;
      try {
        value = number(token());
        pos = skipBlanks(pos, end);
        if (pos < end && peek() != '#') {
          number(token()); // the timestamp: read only to tell a number from garbage
          pos = skipBlanks(pos, end);
        }
      } catch (NumberFormatException e) {
        return null;
      }
      // whatever follows a '#' here is an OpenMetrics exemplar, which says nothing about the value
      if (pos < end && peek() != '#') {
        return null;
      }
      return new Sample(name, labels, value);
    }

    /**
     * The metric name (colons allowed) or label name at {@code pos}, {@code pos} then after it;
     * null when none starts there.
     */
    private String identifier(boolean metric) {
      int start = pos;
      if (!(metric ? isNameStart(peek()) : isLabelNameStart(peek()))) {
        return null;
      }
      pos++;
      while (pos < end
          && (metric ? isNameChar(text.charAt(pos)) : isLabelNameChar(text.charAt(pos)))) {
        pos++;
      }
      return text.substring(start, pos);
    }

    /** From {@code pos} at '{' to just after the matching '}'; false if malformed. */
    private boolean labels() {
      pos++;
      while (true) {
        pos = skipBlanks(pos, end);
        if (peek() == '}') {
          // also after a trailing comma, and for an empty "{}"
          pos++;
          return true;
        }
        String labelName = identifier(false);
        if (labelName == null) {
          return false;
        }
        pos = skipBlanks(pos, end);
        if (peek() != '=') {
          return false;
        }
        pos = skipBlanks(pos + 1, end);
        if (peek() != '"') {
          return false;
        }
        String value = quoted();
        // a repeated name would make one of the two values silently win
        if (value == null || labels.put(labelName, value) != null) {
          return false;
        }
        pos = skipBlanks(pos, end);
        char c = peek();
        if (c == ',') {
          pos++;
        } else if (c != '}') {
          return false;
        }
      }
    }

    /**
     * From {@code pos} at the opening quote to just after the closing one; null if unterminated.
     */
    private String quoted() {
      int valueStart = ++pos;
      boolean escaped = false;
      while (pos < end) {
        char c = text.charAt(pos);
        if (c == '"') {
          String value = escaped ? unescaped.toString() : text.substring(valueStart, pos);
          pos++;
          return value;
        }
        if (c == '\\') {
          if (pos + 1 >= end) {
            return null;
          }
          if (!escaped) {
            // most values have no escapes: only these pay for a builder
            escaped = true;
            unescaped.setLength(0);
            unescaped.append(text, valueStart, pos);
          }
          char e = text.charAt(pos + 1);
          switch (e) {
            case '\\', '"' -> unescaped.append(e);
            case 'n' -> unescaped.append('\n');
            default -> unescaped.append('\\').append(e);
          }
          pos += 2;
        } else {
          if (escaped) {
            unescaped.append(c);
          }
          pos++;
        }
      }
      return null;
    }

    /** The text from {@code pos} to the next blank, or "" if there is none. */
    private String token() {
      int tokenStart = pos;
      while (pos < end && !isBlank(text.charAt(pos))) {
        pos++;
      }
      return text.substring(tokenStart, pos);
    }

    private char peek() {
      return pos < end ? text.charAt(pos) : '\0';
    }

    int skipBlanks(int from, int to) {
      while (from < to && isBlank(text.charAt(from))) {
        from++;
      }
      return from;
    }
  }

  /**
   * A number as Go's {@code strconv.ParseFloat} reads decimal text (exporters are mostly Go and
   * Prometheus reads with it). {@link Double#parseDouble} alone would also take {@code 1d}, {@code
   * 1f} and hexadecimal, and would refuse {@code Inf} and {@code nan}.
   */
  static double number(String s) {
    if (s.isEmpty()) {
      throw new NumberFormatException("no value");
    }
    boolean decimal = true;
    for (int i = 0; i < s.length() && decimal; i++) {
      char c = s.charAt(i);
      decimal = c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    }
    if (decimal) {
      return Double.parseDouble(s); // still throws for "1e", "1.2.3", "+-1"
    }
    if (s.equalsIgnoreCase("nan")) {
      return Double.NaN;
    }
    int sign = s.charAt(0) == '-' ? -1 : 1;
    String unsigned = s.charAt(0) == '-' || s.charAt(0) == '+' ? s.substring(1) : s;
    if (unsigned.equalsIgnoreCase("inf") || unsigned.equalsIgnoreCase("infinity")) {
      return sign * Double.POSITIVE_INFINITY;
    }
    throw new NumberFormatException("not a number: " + s);
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  private static boolean isNameStart(char c) {
    return isLabelNameStart(c) || c == ':';
  }

  private static boolean isNameChar(char c) {
    return isLabelNameChar(c) || c == ':';
  }

  private static boolean isLabelNameStart(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
  }

  private static boolean isLabelNameChar(char c) {
    return isLabelNameStart(c) || c >= '0' && c <= '9';
  }
}
