package io.github.llmbench.report.page;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.testing.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code llm-page.js} on its own: the script frame, the page's script and Gatling's Highcharts in
 * headless Chromium, with hand-made chart data of every kind; {@code #llm-status} says what it
 * drew.
 */
@Tag("chromium")
class LlmPageScriptTest {

  private static final long T = 1_700_000_000_000L;
  private static final String XSS = "<script>alert(7)</script>";

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static Map<String, Object> chart(String id, String kind, Object... spec) {
    Map<String, Object> c = map("id", id, "kind", kind);
    c.putAll(map(spec));
    return c;
  }

  /** The shared data every kind reads, as the sections write it. */
  private static Map<String, Object> sharedData() {
    return map(
        "ladder",
        List.of(
            map("level", XSS, "c", 2, "out", 10.0, "tpot", 5.0, "ttftP99", 50.0),
            map(
                "level", "c4", "c", 4, "out", 18.0, "tpot", 6.0, "ttftP99", 60.0, "outLow", 17.0,
                "outHigh", 19.0)),
        "imagesOver",
        "count",
        "images",
        List.of(
            map("level", "i1", "n", 1, "ttft", 10.0, "ttftP99", 20.0, "input", 100.0),
            map("level", "i2", "n", 2, "ttft", 15.0, "ttftP99", 30.0, "input", 200.0)),
        "knee",
        map("level", XSS, "c", 2),
        "saturation",
        map("level", "c4", "c", 4),
        "windows",
        List.of(map("level", XSS, "from", T, "to", T + 1000)),
        "ramps",
        List.of(
            map(
                "level",
                XSS,
                "rate",
                true,
                "asked",
                List.of(List.of(1, 1), List.of(3, 2)),
                "sent",
                List.of(List.of(1, 1), List.of(3, 2)),
                "ttft",
                List.of(List.of(1, 20), List.of(3, 40)),
                "tpot",
                List.of(List.of(1, 5), List.of(3, 6)),
                "brokeAt",
                3,
                "brokeLoad",
                2.0,
                "brokeTtft",
                40)),
        "inflight",
        List.of(List.of(T, 1), List.of(T + 500, 2)),
        "tokens",
        List.of(List.of(T, 10.0), List.of(T + 1000, 20.0)),
        "server",
        map(
            "running", List.of(List.of(T, 1), List.of(T + 1000, 2)),
            "kv_cache_usage", List.of(List.of(T, 0.1)),
            "gpu_power_w", List.of(List.of(T, 300))),
        "roofline",
        map(
            "peak",
            1e14,
            "bandwidth",
            1e12,
            "points",
            List.of(
                map(
                    "level",
                    XSS,
                    "decodeOi",
                    10.0,
                    "decodeFlops",
                    1e13,
                    "wholeOi",
                    50.0,
                    "wholeFlops",
                    4e13))),
        "capacity",
        map(
            "search",
            "concurrency",
            "capacity",
            4,
            "objectives",
            map("ttft.p99", 100.0),
            "probes",
            List.of(
                map("level", "c2", "met", true, "figures", map("ttft.p99", 50.0)),
                map("level", "c8", "met", false, "figures", map("ttft.p99", 150.0)))),
        "ab",
        map(
            "gates",
            List.of(
                map(
                    "gate",
                    "tpot.mean " + XSS,
                    "orientation",
                    "B/A",
                    "looks",
                    List.of(
                        map("pairs", 1, "ratio", 1.4),
                        map("pairs", 2, "ratio", 1.5),
                        map("pairs", 3, "ratio", 1.45, "fail_at", 1.2, "pass_at", 1.05))))));
  }

  /** A chart of each kind the page's sections list. */
  private static List<Map<String, Object>> everyKind() {
    List<Map<String, Object>> series =
        List.of(map("key", "ttft", "name", "Mean TTFT", "color", "#5E7BE2"));
    return List.of(
        chart(
            "c-ladder",
            "ladder",
            "title",
            "Out",
            "key",
            "out",
            "unit",
            "tok/s",
            "color",
            "#5E7BE2"),
        chart(
            "c-images",
            "images",
            "title",
            "TTFT",
            "unit",
            "ms",
            "axis",
            "Images",
            "decimals",
            false,
            "series",
            series),
        chart(
            "c-dist",
            "distribution",
            "title",
            "TTFT " + XSS,
            "metric",
            "TTFT",
            "points",
            List.of(List.of(10.0, 0.0), List.of(20.0, 50.0), List.of(30.0, 100.0))),
        chart("c-inflight", "inflight", "title", "In flight"),
        chart("c-tokens", "tokens", "title", "Tokens"),
        chart("c-ramp", "ramp", "ramp", 0),
        chart("c-server", "server", "title", "Server"),
        chart("c-gpu", "gpu", "title", "GPU"),
        chart("c-capacity", "capacity", "metric", "ttft.p99"),
        chart("c-ab", "ab", "gate", 0),
        chart("c-roofline", "roofline", "title", "Roofline"),
        chart(
            "c-steps",
            "steps",
            "title",
            "By step " + XSS,
            "points",
            List.of(
                map("step", 1, "ttft", 40.0, "ttftP99", 80.0, "input", 300.0),
                map("step", 2, "ttft", 55.0, "ttftP99", null, "input", 620.0))));
  }

  /** A page of the script frame, {@code llm-page.js}, a box per chart and the data. */
  private static Chromium.Dump open(Path dir, List<Map<String, Object>> charts) throws Exception {
    PageParts.copyMissingAssets(dir);
    StringBuilder sb = new StringBuilder();
    PageParts.pageStart(sb, "script test", "", "index.html");
    PageParts.contentStart(sb, "script test", "");
    charts.forEach(c -> PageParts.chartBox(sb, (String) c.get("id")));
    Map<String, Object> data = sharedData();
    data.put("charts", charts);
    PageParts.pageEnd(sb, data, PageParts.resource("llm-page.js"));
    Path page = dir.resolve("llm.html");
    Files.writeString(page, sb);
    return Chromium.open(page);
  }

  private static String status(Chromium.Dump d) {
    int at = d.dom().indexOf("id=\"llm-status\"");
    assertTrue(at >= 0, "no status element:\n" + d.log());
    return d.dom().substring(at, d.dom().indexOf('>', at));
  }

  @Test
  void everyKindOfChartIsDrawn(@TempDir Path dir) throws Exception {
    List<Map<String, Object>> charts = everyKind();
    Chromium.assertChartsDrawn(open(dir, charts), charts.size());
  }

  @Test
  void aLabelWithAScriptIsShownAsText(@TempDir Path dir) throws Exception {
    String dom = open(dir, everyKind()).dom();
    assertTrue(dom.contains("TTFT &lt;script&gt;alert(7)&lt;/script&gt;"), "the title as text");
    assertFalse(dom.contains("<script>alert(7)"), "no injected script element");
  }

  @Test
  void aChartOfAnUnknownKindIsAnErrorNotADrawing(@TempDir Path dir) throws Exception {
    List<Map<String, Object>> charts = new ArrayList<>(everyKind().subList(0, 1));
    charts.add(chart("c-odd", "sparkline", "title", "?"));
    String s = status(open(dir, charts));
    assertTrue(s.contains("data-expected=\"1\""), s);
    assertTrue(s.contains("data-drawn=\"1\""), s);
    assertTrue(s.contains("data-errors=\"1\""), s);
  }

  @Test
  void aPageWithoutChartsDrawsNothingAndFailsNothing(@TempDir Path dir) throws Exception {
    Chromium.assertChartsDrawn(open(dir, List.of()), 0);
  }
}
