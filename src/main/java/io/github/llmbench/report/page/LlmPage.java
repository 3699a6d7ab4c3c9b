package io.github.llmbench.report.page;

import static io.github.llmbench.report.page.Html.esc;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.report.section.PagePart;
import io.github.llmbench.report.section.ReportSection;
import io.github.llmbench.report.section.ReportSections;
import io.github.llmbench.summary.RunInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code llm.html}: the kit's page beside Gatling's {@code index.html}, in Gatling's look (its
 * {@code style/} and page structure) with charts drawn by the Highcharts Gatling ships in {@code
 * js/}; nothing comes from the network, so it works opened from disk. Gatling's pages get a menu
 * item "LLM" next to "Details" ({@link #linkFromGatlingPages}, idempotent). The page is a loop over
 * the report's sections ({@link ReportSections#PAGE}): each that applies gives its nav entries and
 * parts as data, rendered here by {@link PageParts}; its charts' boxes and the chart data's list of
 * charts come from the same items, and {@code llm-page.js} draws the charts that list names.
 *
 * <p>Every text from a server, a dataset, the records or the metadata goes through {@link
 * Html#esc}; the chart data travels as JSON in a {@code <script type="application/json">} element
 * ({@link Html#scriptJson}), and the page's script escapes again whatever it hands to Highcharts as
 * a label.
 *
 * <p>For tests and checks, the page's script records in {@code #llm-status} how many charts it
 * meant to draw ({@code data-expected}), how many it drew ({@code data-drawn}) and how many script
 * errors it caught ({@code data-errors}, messages as the element's text).
 */
public final class LlmPage {

  /** The marker of our menu item in Gatling's pages: present means already linked. */
  public static final String LINK_ID = "llm_link";

  private static final Pattern DETAILS_LINK =
      Pattern.compile("<a id=\"details_link\" href=\"([^\"]*)\"");
  private static final Pattern DETAILS_ITEM =
      Pattern.compile("<div class=\"item[^\"]*\"><a id=\"details_link\"[^>]*>[^<]*</a></div>");
  private static final String SPACER = "<div class=\"sous-menu-spacer\">";

  private static final String CSS = PageParts.resource("llm-page.css");

  /**
   * Draws the charts from {@code D} (#llm-data) inside {@link PageParts}'s script frame. No string
   * reaches HTML unescaped.
   */
  private static final String CHART_SCRIPT = PageParts.resource("llm-page.js");

  private LlmPage() {}

  /**
   * Writes {@code llm.html} into the run folder, copies Gatling's chart and style assets there when
   * missing (from Gatling's jar on the classpath), and links the page from Gatling's pages.
   *
   * @return the page's path
   */
  public static Path write(Path runDir, RunAnalysis a, RunInfo info) {
    Path page = runDir.resolve(RunFiles.PAGE);
    try {
      String details = detailsHref(runDir);
      PageParts.write(
          page,
          html(
              a,
              info,
              details,
              runDir.getFileName() == null ? "" : runDir.getFileName().toString()));
      linkFromGatlingPages(runDir);
      return page;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + page + ": " + e.getMessage(), e);
    }
  }

  /**
   * Adds the "LLM" item after "Details" in the sub-menu of every Gatling page of the folder
   * (index.html first of all); a page that already has it is left as it is.
   *
   * @return how many pages were changed
   */
  public static int linkFromGatlingPages(Path runDir) throws IOException {
    int changed = 0;
    List<Path> pages;
    try (Stream<Path> s = Files.list(runDir)) {
      pages =
          s.filter(p -> p.getFileName().toString().endsWith(".html"))
              .filter(p -> !p.getFileName().toString().equals(RunFiles.PAGE))
              .sorted()
              .toList();
    }
    for (Path p : pages) {
      String text = Files.readString(p, StandardCharsets.UTF_8);
      String patched = withLink(text);
      if (!patched.equals(text)) {
        Files.writeString(p, patched, StandardCharsets.UTF_8);
        changed++;
      }
    }
    return changed;
  }

  /** The page text with our menu item added; unchanged when present or there is no menu. */
  static String withLink(String gatlingPage) {
    if (gatlingPage.contains("id=\"" + LINK_ID + "\"")) {
      return gatlingPage;
    }
    String item =
        "\n<div class=\"item\"><a id=\""
            + LINK_ID
            + "\" href=\""
            + RunFiles.PAGE
            + "\">LLM</a></div>";
    Matcher m = DETAILS_ITEM.matcher(gatlingPage);
    if (m.find()) {
      return gatlingPage.substring(0, m.end()) + item + gatlingPage.substring(m.end());
    }
    int i = gatlingPage.indexOf(SPACER);
    if (i >= 0) {
      int at = i + SPACER.length();
      return gatlingPage.substring(0, at) + item + gatlingPage.substring(at);
    }
    return gatlingPage;
  }

  private static String detailsHref(Path runDir) throws IOException {
    Path index = runDir.resolve("index.html");
    if (!Files.isRegularFile(index)) {
      return null;
    }
    Matcher m = DETAILS_LINK.matcher(Files.readString(index, StandardCharsets.UTF_8));
    return m.find() ? m.group(1) : null;
  }

  // ---------------------------------------------------------------- page

  /**
   * The page: the nav entries and parts of every section that applies ({@link
   * ReportSections#PAGE}), then the chart data and the script.
   */
  public static String html(RunAnalysis a, RunInfo info, String detailsHref, String runName) {
    List<PagePart> parts = new ArrayList<>();
    for (ReportSection s : ReportSections.PAGE) {
      if (s.appliesTo(a)) {
        parts.addAll(s.page(a, info));
      }
    }
    StringBuilder sb = new StringBuilder(64 * 1024);
    PageParts.pageStart(sb, "Gatling Stats - LLM serving", CSS, "index.html");
    for (PagePart p : parts) {
      if (p.navLabel() != null) {
        PageParts.navItem(sb, p.anchor(), p.navLabel());
      }
    }
    StringBuilder menu = new StringBuilder();
    menu.append(PageParts.menuItem(null, "index.html", "Global", false));
    if (detailsHref != null) {
      menu.append(PageParts.menuItem("details_link", detailsHref, "Details", false));
    }
    menu.append(PageParts.menuItem(LINK_ID, RunFiles.PAGE, "LLM", true));
    PageParts.contentStart(
        sb, "LLM serving" + (runName.isEmpty() ? "" : " &mdash; " + esc(runName)), menu.toString());
    parts.forEach(p -> PageParts.part(sb, p));
    Map<String, Object> data = chartData(a, info);
    data.put("charts", charts(parts));
    PageParts.pageEnd(sb, data, CHART_SCRIPT);
    return sb.toString();
  }

  /** Every chart of the parts, in the order of their boxes: what the page's script draws. */
  static List<Map<String, Object>> charts(List<PagePart> parts) {
    List<Map<String, Object>> charts = new ArrayList<>();
    for (PagePart p : parts) {
      for (PagePart.Item item : p.items()) {
        if (item instanceof PagePart.Chart c) {
          charts.add(c.entry());
        }
      }
    }
    return charts;
  }

  /** The page's chart data of a run without search or merge. */
  static Map<String, Object> chartData(RunAnalysis a) {
    return chartData(a, RunInfo.NONE);
  }

  /** The page's chart data: the entries of each section that applies, in the page's order. */
  static Map<String, Object> chartData(RunAnalysis a, RunInfo info) {
    Map<String, Object> d = new LinkedHashMap<>();
    for (ReportSection s : ReportSections.PAGE) {
      if (s.appliesTo(a)) {
        s.putChartData(a, info, d);
      }
    }
    return d;
  }
}
