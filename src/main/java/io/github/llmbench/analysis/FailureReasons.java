package io.github.llmbench.analysis;

import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why a level's requests failed: the distinct error texts of its failed records with how many
 * requests each, the most frequent first (ties in the order they first appeared), cut to the top
 * few; what was cut is counted, so a report can say how much it left out. Pure.
 *
 * <p>A failed record is one with {@code ok == false}; one without an error text counts under
 * {@value #NO_REASON}. The texts are compared exactly: the capture already keeps each reason on one
 * line and short, and grouping "similar" texts would hide the detail (token counts, status codes)
 * the reader needs.
 *
 * @param top the most frequent reasons, at most the limit asked for
 * @param otherRequests failed requests whose reason is not in {@code top}
 * @param otherReasons distinct reasons not in {@code top}
 */
public record FailureReasons(List<Reason> top, int otherRequests, int otherReasons) {

  /** How many reasons the reports show per level. */
  public static final int TOP = 10;

  /** The reason of a failed record that carries no error text. */
  public static final String NO_REASON = "(no reason given)";

  /** No failures. */
  public static final FailureReasons NONE = new FailureReasons(List.of(), 0, 0);

  /**
   * One reason.
   *
   * @param error the error text, exactly as recorded (or {@value #NO_REASON})
   * @param count failed requests with that text
   */
  public record Reason(String error, int count) {}

  public FailureReasons {
    top = List.copyOf(top);
  }

  /** True when no request failed. */
  public boolean isEmpty() {
    return top.isEmpty();
  }

  /** All failed requests, shown or not. */
  public int failed() {
    int n = otherRequests;
    for (Reason r : top) {
      n += r.count();
    }
    return n;
  }

  /**
   * The reasons of the failed records among {@code records} (the caller picks one level's), the
   * {@code limit} most frequent.
   *
   * @throws IllegalArgumentException for a negative limit
   */
  public static FailureReasons of(Collection<RequestRecord> records, int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
    Map<String, Integer> counts = new LinkedHashMap<>(); // insertion order = first appearance
    for (RequestRecord r : records) {
      if (!r.ok() && !r.cancelled()) {
        counts.merge(r.error() == null ? NO_REASON : r.error(), 1, Integer::sum);
      }
    }
    if (counts.isEmpty()) {
      return NONE;
    }
    List<Reason> all = new ArrayList<>(counts.size());
    counts.forEach((error, count) -> all.add(new Reason(error, count)));
    // a stable sort: equal counts keep their first-appearance order
    all.sort((a, b) -> Integer.compare(b.count(), a.count()));
    List<Reason> shown = all.subList(0, Math.min(limit, all.size()));
    int otherRequests = 0;
    for (Reason r : all.subList(shown.size(), all.size())) {
      otherRequests += r.count();
    }
    return new FailureReasons(shown, otherRequests, all.size() - shown.size());
  }
}
