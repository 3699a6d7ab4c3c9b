package io.github.llmbench.report;

import io.github.llmbench.analysis.FailureReasons;
import io.github.llmbench.records.RunFiles;
import java.util.Locale;

/**
 * The console block of a level's failures, printed after its result blocks: a title line, one line
 * per reason (count right-aligned, then the error text), and a note on the failures left out:
 *
 * <pre>
 * ---------------------- Failures (c2) -----------------------
 *    4  HTTP 400: request (15204 tokens) exceeds the available context size (2048 tokens), try increasing it
 *    1  timeout: no response within 5 s
 * (2 more failed requests with 2 other reasons in llm/requests.jsonl)
 * </pre>
 */
public final class FailureBlock {

  /** Where every failure's reason is, for the note on those left out. */
  static final String RECORDS_FILE = RunFiles.LLM_FOLDER + "/" + RunFiles.REQUESTS;

  private FailureBlock() {}

  /**
   * The block, lines ended by {@code \n}; empty when the level has no failures.
   *
   * @param level the level's name for the title, null or blank for a single-level run
   */
  public static String format(FailureReasons f, String level) {
    if (f.isEmpty()) {
      return "";
    }
    String title = level == null || level.isBlank() ? " Failures " : " Failures (" + level + ") ";
    StringBuilder sb = new StringBuilder();
    sb.append(ServingResultBlock.center(title, '-', ServingResultBlock.WIDTH)).append('\n');
    int width = Math.max(4, Integer.toString(f.top().get(0).count()).length());
    for (FailureReasons.Reason r : f.top()) {
      sb.append(String.format(Locale.ROOT, "%" + width + "d", r.count()))
          .append("  ")
          .append(oneLine(r.error()))
          .append('\n');
    }
    if (f.otherReasons() > 0) {
      sb.append('(').append(leftOutNote(f)).append(")\n");
    }
    return sb.toString();
  }

  /**
   * What the top reasons leave out, e.g. {@code 2 more failed requests with 2 other reasons in
   * llm/requests.jsonl}; empty when nothing was left out.
   */
  public static String leftOutNote(FailureReasons f) {
    if (f.otherReasons() == 0) {
      return "";
    }
    return f.otherRequests()
        + " more failed "
        + plural(f.otherRequests(), "request")
        + " with "
        + f.otherReasons()
        + " other "
        + plural(f.otherReasons(), "reason")
        + " in "
        + RECORDS_FILE;
  }

  private static String plural(int n, String word) {
    return n == 1 ? word : word + "s";
  }

  /**
   * The capture keeps reasons on one line, but records re-read by {@link ReportMain} may come from
   * an edited file: a line break or a terminal escape there must not break the block's layout.
   */
  static String oneLine(String s) {
    return s.replaceAll("\\s+", " ").replaceAll("\\p{Cntrl}", "?").strip();
  }
}
