package io.github.llmbench.report.section;

import io.github.llmbench.analysis.FailureReasons;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.report.section.PagePart.Note;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A level's failures (on the page a table per level, or that there were none); on the console after
 * its result blocks: a title line, one line per reason (count right-aligned, then the error text),
 * and a note on the failures left out:
 *
 * <pre>
 * ---------------------- Failures (c2) -----------------------
 *    4  HTTP 400: request (15204 tokens) exceeds the available context size (2048 tokens), try increasing it
 *    1  timeout: no response within 5 s
 * (2 more failed requests with 2 other reasons in llm/requests.jsonl)
 * </pre>
 */
public final class FailuresSection implements ReportSection {

  /** Where every failure's reason is, for the note on those left out. */
  static final String RECORDS_FILE = RunFiles.LLM_FOLDER + "/" + RunFiles.REQUESTS;

  FailuresSection() {}

  /**
   * The block, lines ended by {@code \n}; empty when the level has no failures.
   *
   * @param level the level's name for the title, null or blank for a single-level run
   */
  static String format(FailureReasons f, String level) {
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

  @Override
  public boolean appliesTo(RunAnalysis a) {
    return true;
  }

  @Override
  public String levelText(RunAnalysis a, RunAnalysis.Level l, boolean several) {
    return format(l.failures(), several ? l.name() : null);
  }

  /**
   * Per level with failures, a table of its {@value FailureReasons#TOP} most frequent reasons
   * (count first, as the console block), then what was left out.
   */
  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    List<Item> items = new ArrayList<>();
    for (RunAnalysis.Level l : a.levels().values()) {
      FailureReasons f = l.failures();
      if (f.isEmpty()) {
        continue;
      }
      List<List<Object>> rows = new ArrayList<>();
      f.top().forEach(r -> rows.add(PagePart.row(r.count(), r.error())));
      items.add(
          new Table(
              "Failed requests (" + l.name() + "): " + f.failed() + ", by reason",
              List.of("Count", "Reason"),
              rows));
      if (f.otherReasons() > 0) {
        items.add(Note.of(leftOutNote(f) + "."));
      }
    }
    if (items.isEmpty()) {
      items.add(Note.kit("No failed requests."));
    }
    return List.of(new PagePart("llm-errors", "Failures", items));
  }
}
