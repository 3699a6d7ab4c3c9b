package io.github.llmbench.report.page;

import static io.github.llmbench.report.page.Html.esc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.report.section.PagePart;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * What the kit's pages ({@link LlmPage}, {@code compare.ComparePage}, {@code sweep.SweepPage})
 * share: Gatling's look (its {@code style/}, head, theme toggle, menu and table markup), the
 * Highcharts assets copied from Gatling's jar, and the script frame that parses the page's JSON
 * data, draws each chart and reports into {@code #llm-status} ({@code data-expected}, {@code
 * data-drawn}, {@code data-errors}, messages as its text), which the tests read.
 *
 * <p>A page is {@link #pageStart} (head up to the side navigation's list), nav items ({@link
 * #navItem}), {@link #contentStart} (the title bar and sub-menu), the page's sections, then {@link
 * #pageEnd} with the chart data and the page's drawing code.
 */
public final class PageParts {

  private static final String ASSETS = "/io/gatling/charts/assets/";
  private static final List<String> NEEDED_ASSETS =
      List.of(
          "js/highstock.js",
          "js/theme.js",
          "style/style.css",
          "style/bootstrap.min.css",
          "style/favicon.ico",
          "style/logo-light.svg",
          "style/logo-dark.svg");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String CSS = resource("page.css");

  /**
   * Before Highcharts loads: the counters {@code window.__llm} the page's script and the tests
   * read, and the errors of any script on the page, caught into them.
   */
  private static final String ERRORS_SCRIPT = resource("page-errors.js");

  private static final String THEME_SCRIPT = resource("page-theme.html");
  private static final String HEAD = resource("page-head.html");

  /**
   * The script's frame, opening: {@code S} (the counters), {@code esc(s)} for any text handed to
   * Highcharts, {@code draw(id, options)} (counts, catches), {@code title(text)}, and {@code D},
   * the parsed {@code #llm-data}. No string reaches HTML unescaped.
   */
  private static final String SCRIPT_START = resource("page-script-start.js");

  /** The script's frame, closing: catches the page's errors and fills {@code #llm-status}. */
  private static final String SCRIPT_END = resource("page-script-end.js");

  private PageParts() {}

  /**
   * Writes a page: its folder made, Gatling's assets copied there when missing ({@link
   * #copyMissingAssets}), the page in UTF-8.
   *
   * @return {@code file}
   * @throws UncheckedIOException {@code cannot write FILE: why}
   */
  public static Path write(Path file, String html) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      copyMissingAssets(dir);
      Files.writeString(file, html, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** Copies Gatling's chart and style assets into {@code dir} when missing (from its jar). */
  public static void copyMissingAssets(Path dir) throws IOException {
    for (String asset : NEEDED_ASSETS) {
      Path target = dir.resolve(asset);
      if (Files.exists(target)) {
        continue;
      }
      try (InputStream in = PageParts.class.getResourceAsStream(ASSETS + asset)) {
        if (in == null) {
          throw new IOException("Gatling's asset " + asset + " is not on the classpath");
        }
        Files.createDirectories(target.getParent());
        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /**
   * From {@code <!DOCTYPE html>} to the opened list of the side navigation.
   *
   * @param title the document title (escaped here)
   * @param css the page's own style rules, after the shared ones
   * @param homeHref where Gatling's logo links to (escaped here)
   */
  public static void pageStart(StringBuilder sb, String title, String css, String homeHref) {
    sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"UTF-8\">\n")
        .append("<link rel=\"shortcut icon\" type=\"image/x-icon\" href=\"style/favicon.ico\">\n")
        .append("<link href=\"style/style.css\" rel=\"stylesheet\" type=\"text/css\">\n")
        .append("<link href=\"style/bootstrap.min.css\" rel=\"stylesheet\" type=\"text/css\">\n")
        .append("<script>")
        .append(ERRORS_SCRIPT)
        .append("</script>\n")
        .append("<script src=\"js/highstock.js\"></script>\n")
        .append("<script src=\"js/theme.js\"></script>\n")
        .append("<title>")
        .append(esc(title))
        .append("</title>\n")
        .append("<style>\n")
        .append(CSS)
        .append(css == null ? "" : css)
        .append("</style>\n</head>\n<body>\n")
        .append(THEME_SCRIPT)
        .append("<div class=\"app-container\">\n<div class=\"frise\"></div>\n")
        .append(HEAD.replace("@HOME@", esc(homeHref)))
        .append("<div class=\"container details\">\n  <div class=\"nav\">\n    <ul>");
  }

  /**
   * Closes the navigation and opens the content: the title bar ({@code tabHtml}, already escaped)
   * and the sub-menu ({@code subMenuHtml}: {@code <div class="item">} links, already escaped), up
   * to the opened article.
   */
  public static void contentStart(StringBuilder sb, String tabHtml, String subMenuHtml) {
    sb.append("</ul>\n  </div>\n  <div class=\"cadre\">\n    <div class=\"content\">\n")
        .append("      <div class=\"content-header\">\n        <div class=\"onglet\">\n")
        .append("          ")
        .append(tabHtml)
        .append("\n        </div>\n        <div class=\"sous-menu\" id=\"sousMenu\">\n")
        .append("          <div class=\"sous-menu-spacer\">\n")
        .append(subMenuHtml)
        .append("          </div>\n        </div>\n      </div>\n")
        .append("      <div class=\"content-in\">\n        <div class=\"container-article\">\n")
        .append("          <div class=\"article\">\n");
  }

  /** A sub-menu item: {@code <div class="item">} with a link ({@code open}: the current page). */
  public static String menuItem(String id, String href, String label, boolean open) {
    return "<div class=\"item"
        + (open ? " ouvert" : "")
        + "\"><a "
        + (id == null ? "" : "id=\"" + esc(id) + "\" ")
        + "href=\""
        + esc(href)
        + "\">"
        + esc(label)
        + "</a></div>\n";
  }

  /**
   * The status element, the end of the article and the page, the chart data as JSON in {@code
   * #llm-data}, and the script: {@link #SCRIPT_START}, {@code drawing} (which reads {@code D} and
   * calls {@code draw(id, options)}), {@link #SCRIPT_END}.
   */
  public static void pageEnd(StringBuilder sb, Object chartData, String drawing) {
    sb.append("<div id=\"llm-status\" style=\"display:none\"></div>\n")
        .append("          </div>\n        </div>\n      </div>\n    </div>\n  </div>\n</div>\n")
        .append("</div>\n<script type=\"application/json\" id=\"llm-data\">")
        .append(Html.scriptJson(toJson(chartData)))
        .append("</script>\n<script>\n")
        .append(SCRIPT_START)
        .append(drawing)
        .append(SCRIPT_END)
        .append("</script>\n</body>\n</html>\n");
  }

  public static void navItem(StringBuilder sb, String anchor, String label) {
    sb.append("<li><a class=\"item\" href=\"#")
        .append(esc(anchor))
        .append("\"><span class=\"nav-label\">")
        .append(esc(label))
        .append("</span></a></li>\n");
  }

  public static void chartBox(StringBuilder sb, String id) {
    sb.append("<div class=\"schema geant\"><div id=\"")
        .append(esc(id))
        .append("\" class=\"geant llm-chart\"></div></div>\n");
  }

  public static void tableStart(StringBuilder sb, String title, String... headers) {
    tableStart(sb, title, List.of(headers));
  }

  public static void tableStart(StringBuilder sb, String title, List<String> headers) {
    sb.append("<div class=\"statistics extensible-geant llm-table\">\n<div class=\"title\">")
        .append("<div class=\"title_base\"><span class=\"title_base_stats\">")
        .append(esc(title))
        .append("</span></div></div>\n<div class=\"scrollable\">\n")
        .append("<table class=\"statistics-in extensible-geant\">\n<thead><tr>");
    for (String h : headers) {
      sb.append("<th class=\"header\"><span>").append(esc(h)).append("</span></th>");
    }
    sb.append("</tr></thead>\n<tbody>\n");
  }

  public static void tableEnd(StringBuilder sb) {
    sb.append("</tbody>\n</table>\n</div>\n</div>\n");
  }

  /**
   * A table row: the first cell as a row name, the others as values; every cell escaped, a {@link
   * PagePart.Link} as a link to its address.
   */
  public static void row(StringBuilder sb, Object... cells) {
    sb.append("<tr>");
    boolean first = true;
    for (Object c : cells) {
      sb.append("<td class=\"").append(first ? "total" : "value total").append("\">");
      if (c instanceof PagePart.Link link) {
        sb.append("<a href=\"")
            .append(esc(link.href()))
            .append("\">")
            .append(esc(link.href()))
            .append("</a>");
      } else {
        sb.append(esc(c));
      }
      sb.append("</td>");
      first = false;
    }
    sb.append("</tr>\n");
  }

  /** A section's part: its element, then each of its items in Gatling's markup. */
  public static void part(StringBuilder sb, PagePart p) {
    sb.append("<div id=\"").append(esc(p.anchor())).append("\" class=\"llm-section\">\n");
    for (PagePart.Item item : p.items()) {
      item(sb, item);
    }
    sb.append("</div>\n");
  }

  private static void item(StringBuilder sb, PagePart.Item item) {
    if (item instanceof PagePart.Heading h) {
      sb.append("<div class=\"title\"><div class=\"title_base\"><span class=\"title_base_stats\">")
          .append(esc(h.text()))
          .append("</span></div></div>\n");
    } else if (item instanceof PagePart.Bullets b) {
      sb.append("<ul class=\"").append(esc(b.style())).append("\">\n");
      b.lines().forEach(line -> sb.append("<li>").append(esc(line)).append("</li>\n"));
      sb.append("</ul>\n");
    } else if (item instanceof PagePart.Table t) {
      tableStart(sb, t.title(), t.headers());
      t.rows().forEach(r -> row(sb, r.toArray()));
      tableEnd(sb);
    } else if (item instanceof PagePart.Note n) {
      sb.append("<p class=\"llm-note\">")
          .append(n.kitText() ? n.text() : esc(n.text()))
          .append("</p>\n");
    } else if (item instanceof PagePart.Chart c) {
      chartBox(sb, c.id());
    }
  }

  public static String toJson(Object o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("chart data not serialisable", e);
    }
  }

  /**
   * A text resource of the pages (CSS, script, markup) under {@code
   * src/main/resources/io/github/llmbench/report/}, read once; it is inlined into each page, so a
   * copied report still opens offline.
   */
  public static String resource(String name) {
    try (InputStream in = PageParts.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("page resource " + name + " is not on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read page resource " + name, e);
    }
  }
}
