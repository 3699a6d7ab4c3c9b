package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Debian's headless Chromium, to open a report page from disk as a reader would. */
public final class Chromium {
  private Chromium() {}

  /** The page's DOM after its scripts ran, and Chromium's log. */
  public record Dump(String dom, String log) {}

  public static Dump open(Path html) throws Exception {
    return open(html, null);
  }

  /** As {@link #open(Path)}, in a window {@code width} CSS pixels wide (900 high). */
  public static Dump open(Path html, int width) throws Exception {
    return open(html, width + ",900");
  }

  private static Dump open(Path html, String windowSize) throws Exception {
    String chromium = find();
    Path profile = Files.createTempDirectory("llm-chromium");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + profile,
                "--enable-logging=stderr",
                "--v=0",
                "--virtual-time-budget=3000"));
    if (windowSize != null) {
      cmd.add("--window-size=" + windowSize);
    }
    cmd.addAll(List.of("--dump-dom", html.toUri().toString()));
    Path stdout = profile.resolve("dom.html");
    Path stderr = profile.resolve("stderr.txt");
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("chromium did not finish within 30 s");
    }
    Dump d = new Dump(Files.readString(stdout), Files.readString(stderr));
    assertEquals(0, p.exitValue(), d.log());
    return d;
  }

  /**
   * Checks that {@code llm.html}'s own status element counts {@code charts} charts expected and
   * drawn and no script error, and that Chromium logged no console error.
   */
  public static void assertChartsDrawn(Dump d, int charts) {
    Matcher m = Pattern.compile("id=\"llm-status\"[^>]*>").matcher(d.dom());
    assertTrue(m.find(), "status element missing:\n" + d.log());
    String status = m.group();
    assertTrue(status.contains("data-expected=\"" + charts + "\""), status);
    assertTrue(status.contains("data-drawn=\"" + charts + "\""), status);
    assertTrue(status.contains("data-errors=\"0\""), status);
    assertEquals(charts, count(d.dom(), "class=\"highcharts-container"), "drawn charts");
    for (String line : d.log().lines().toList()) {
      boolean console = line.contains("CONSOLE") || line.contains("Uncaught");
      assertFalse(console && (line.contains("rror") || line.contains("Uncaught")), line);
    }
  }

  /**
   * Which table header cells of {@code html} a reader of a window {@code width} pixels wide can see
   * or scroll to.
   *
   * <p>A header is reachable when, going out from it, each ancestor that clips horizontally ({@code
   * overflow-x} other than {@code visible}) either shows it whole, or scrolls ({@code overflow-x:
   * auto | scroll} with {@code scrollWidth > clientWidth}) and holds it within its scrollable width
   * (then that ancestor's box must be reachable in turn); and the window shows it whole, or the
   * page scrolls sideways to it. An {@code overflow: hidden} ancestor that cuts it makes it
   * unreachable, whatever scrolls inside. A scrolling ancestor counts only inside the table's own
   * box (its {@code .statistics} block, else the table's parent): a page-wide one, such as
   * Gatling's {@code .content-in}, has its scrollbar below the whole page, not by the table. The
   * page is opened as a copy beside it (so its {@code style/} and {@code js/} load) with a
   * measuring script added at the end; the copy is deleted. Fails when the script did not report,
   * or found no header.
   */
  public static Reach reach(Path html, int width) throws Exception {
    Path copy = html.resolveSibling("reach-" + html.getFileName());
    String page = Files.readString(html);
    int end = page.lastIndexOf("</body>");
    assertTrue(end > 0, "no </body> in " + html);
    Files.writeString(copy, page.substring(0, end) + REACH_SCRIPT + page.substring(end));
    Dump d;
    try {
      d = open(copy, width);
    } finally {
      Files.deleteIfExists(copy);
    }
    Matcher m =
        Pattern.compile(
                "<pre id=\"llm-reach\" data-headers=\"(\\d+)\" "
                    + "data-scrolled=\"(\\d+)\">([^<]*)</pre>")
            .matcher(d.dom());
    assertTrue(
        m.find(),
        () ->
            "the measuring script did not report:\n"
                + String.join(
                    "\n",
                    d.log()
                        .lines()
                        .filter(l -> l.contains("CONSOLE") || l.contains("Uncaught"))
                        .toList()));
    Matcher th = Pattern.compile("<th[\\s>]").matcher(page.substring(page.indexOf("<body")));
    int expected = 0;
    while (th.find()) {
      expected++;
    }
    assertTrue(expected > 0, "no table header in " + html);
    assertEquals(expected, Integer.parseInt(m.group(1)), "headers measured");
    Matcher moved = Pattern.compile("<pre id=\"llm-scrolled\">([^<]*)</pre>").matcher(d.dom());
    assertTrue(moved.find(), "the measuring script listed no scrolled headers");
    return new Reach(
        expected, Integer.parseInt(m.group(2)), lines(m.group(3)), lines(moved.group(1)));
  }

  private static List<String> lines(String escaped) {
    String text =
        escaped
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&nbsp;", "\u00a0")
            .replace("&amp;", "&");
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  /**
   * What {@link #reach} measured: the header cells, how many of them only a sideways scroll shows,
   * those neither shown nor reachable, each as {@code "table title > header (why)"}, and those a
   * sideways scroll shows, as {@code "table title > header"}.
   */
  public record Reach(
      int headers, int scrolled, List<String> unreachable, List<String> scrolledHeaders) {}

  /** The measuring script of {@link #reach}: reports into {@code pre#llm-reach}. */
  private static final String REACH_SCRIPT =
      """
      <script>
      window.addEventListener('load', function () {
        var bad = [], moves = [], n = 0, scrolled = 0, root = document.documentElement;
        function scrolls(el, cs) {
          return (cs.overflowX === 'auto' || cs.overflowX === 'scroll') && el.scrollWidth > el.clientWidth;
        }
        function name(el) {
          return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
            + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
        }
        document.querySelectorAll('th').forEach(function (th) {
          n++;
          var r = th.getBoundingClientRect(), left = r.left, right = r.right, why = null, moved = false;
          var own = th.closest('.statistics') || th.closest('table').parentElement;
          if (r.width === 0 || r.height === 0) why = 'not rendered';
          for (var a = th.parentElement; !why && a && a !== root && a !== document.body; a = a.parentElement) {
            var cs = getComputedStyle(a);
            if (cs.overflowX === 'visible') continue;
            var b = a.getBoundingClientRect(), bl = b.left + a.clientLeft, br = bl + a.clientWidth;
            if (left >= bl - 1 && right <= br + 1) continue;
            if (scrolls(a, cs) && !own.contains(a)) {
              why = 'reached only by scrolling ' + name(a) + ', a page-wide box: its scrollbar is not by the table';
              break;
            }
            if (scrolls(a, cs)) {
              var from = bl - a.scrollLeft;
              if (left >= from - 1 && right <= from + a.scrollWidth + 1) {
                var w = Math.min(right - left, a.clientWidth);
                left = bl; right = bl + w; // scrolled into its box: the box must now be reachable
                moved = true;
                continue;
              }
            }
            why = 'cut by ' + name(a) + ' (overflow-x: ' + cs.overflowX + ', ' + a.clientWidth
              + ' px shown of ' + a.scrollWidth + ')';
          }
          if (!why) {
            var vw = root.clientWidth, pageScrolls = root.scrollWidth > vw
              && ['hidden', 'clip'].indexOf(getComputedStyle(root).overflowX) < 0
              && ['hidden', 'clip'].indexOf(getComputedStyle(document.body).overflowX) < 0;
            var lo = pageScrolls ? -window.scrollX : 0, hi = pageScrolls ? root.scrollWidth - window.scrollX : vw;
            if (left < lo - 1 || right > hi + 1) why = 'outside the ' + vw + ' px window';
          }
          if (!why && moved) {
            scrolled++;
            var sbox = th.closest('.statistics'), st = sbox && sbox.querySelector('.title');
            moves.push((st ? st.textContent.trim() : '?') + ' > ' + th.textContent.trim());
          }
          if (why) {
            var box = th.closest('.statistics'), t = box && box.querySelector('.title');
            bad.push((t ? t.textContent.trim() : '?') + ' > ' + th.textContent.trim() + ' (' + why + ')');
          }
        });
        var p = document.createElement('pre');
        p.id = 'llm-reach';
        p.setAttribute('data-headers', n);
        p.setAttribute('data-scrolled', scrolled);
        p.textContent = bad.join('\\n');
        document.body.appendChild(p);
        var q = document.createElement('pre');
        q.id = 'llm-scrolled';
        q.textContent = moves.join('\\n');
        document.body.appendChild(q);
      });
      </script>
      """;

  /** One chart of a page as Highcharts drew it: its container's id, x categories, and series. */
  public record Chart(String container, List<String> categories, List<Series> series) {
    /** The series named {@code name}. */
    public Series series(String name) {
      return series.stream()
          .filter(s -> s.name().equals(name))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no series " + name + " in " + container));
    }
  }

  /** A series' points: x (null where the data gives none) and y (null where empty). */
  public record Series(String name, List<Double> x, List<Double> y) {}

  /**
   * The charts of {@code html} as Highcharts holds them once the page's scripts ran in Chromium, by
   * their container's id (a navigator's series left out). The page is opened as a copy beside it
   * with a reading script added at the end, run after the page's own (jQuery's ready handlers,
   * where Gatling draws), as {@link #reach}; the copy is deleted. Fails when a chart was not drawn,
   * the script did not report, or Chromium logged a script error.
   */
  public static java.util.Map<String, Chart> charts(Path html) throws Exception {
    Path copy = html.resolveSibling("charts-" + html.getFileName());
    String page = Files.readString(html);
    int end = page.lastIndexOf("</body>");
    assertTrue(end > 0, "no </body> in " + html);
    Files.writeString(copy, page.substring(0, end) + CHARTS_SCRIPT + page.substring(end));
    Dump d;
    try {
      d = open(copy);
    } finally {
      Files.deleteIfExists(copy);
    }
    for (String line : d.log().lines().toList()) {
      assertFalse(line.contains("Uncaught"), line);
    }
    Matcher m = Pattern.compile("<pre id=\"llm-charts\">([^<]*)</pre>").matcher(d.dom());
    assertTrue(m.find(), "the reading script did not report");
    com.fasterxml.jackson.databind.JsonNode all =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(lines(m.group(1)).get(0));
    java.util.Map<String, Chart> charts = new java.util.LinkedHashMap<>();
    for (com.fasterxml.jackson.databind.JsonNode c : all) {
      List<String> categories = new ArrayList<>();
      c.get("categories").forEach(x -> categories.add(x.asText()));
      List<Series> series = new ArrayList<>();
      for (com.fasterxml.jackson.databind.JsonNode s : c.get("series")) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode p : s.get("data")) {
          xs.add(p.get(0).isNull() ? null : p.get(0).asDouble());
          ys.add(p.get(1).isNull() ? null : p.get(1).asDouble());
        }
        series.add(new Series(s.get("name").asText(), xs, ys));
      }
      charts.put(
          c.get("container").asText(), new Chart(c.get("container").asText(), categories, series));
    }
    assertEquals(
        charts.size(), count(d.dom(), "class=\"highcharts-container"), "every chart drawn");
    return charts;
  }

  /** The reading script of {@link #charts}: reports into {@code pre#llm-charts}. */
  private static final String CHARTS_SCRIPT =
      """
      <script>
      (function () {
      function report() {
        var out = [];
        (Highcharts.charts || []).forEach(function (c) {
          if (!c) return;
          var cats = c.xAxis && c.xAxis[0] && c.xAxis[0].categories;
          out.push({
            container: c.renderTo.id,
            categories: Array.isArray(cats) ? cats.map(String) : [],
            series: c.series.filter(function (s) { return !s.options.isInternal && !/^Navigator/.test(s.name); })
              .map(function (s) {
                return {
                  name: s.name,
                  data: (s.options.data || []).map(function (p) {
                    if (Array.isArray(p)) return [p[0], p[1] === undefined ? null : p[1]];
                    if (p !== null && typeof p === 'object') return [p.x === undefined ? null : p.x, p.y];
                    return [null, p];
                  })
                };
              })
          });
        });
        var pre = document.createElement('pre');
        pre.id = 'llm-charts';
        pre.textContent = JSON.stringify(out);
        document.body.appendChild(pre);
      }
      // Gatling draws its charts in jQuery's ready handlers, which jQuery 3 runs late: after them
      if (window.jQuery) jQuery(function () { setTimeout(report, 0); });
      else window.addEventListener('load', report);
      })();
      </script>
      """;

  public static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  static String find() {
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
        File f = new File(dir, name);
        if (f.canExecute()) {
          return f.getAbsolutePath();
        }
      }
    }
    fail(
        "chromium is not installed: the page tests need it (Debian: apt-get install -y chromium; .ci/run installs it)");
    return null;
  }
}
