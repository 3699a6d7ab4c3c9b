package io.github.llmbench.report.section;

import io.github.llmbench.analysis.ImageLadder;
import io.github.llmbench.analysis.Interval;
import io.github.llmbench.analysis.Intervals;
import io.github.llmbench.analysis.Knee;
import io.github.llmbench.analysis.LevelSamples;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.TrialValues;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.report.section.PagePart.Bullets;
import io.github.llmbench.report.section.PagePart.Chart;
import io.github.llmbench.report.section.PagePart.Heading;
import io.github.llmbench.report.section.PagePart.Item;
import io.github.llmbench.settings.Images;
import io.github.llmbench.summary.RunInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The ladder: its verdicts (knee, highest power, saturation, over-saturation) and the charts of
 * throughput, TPOT and TTFT against concurrency; for a ladder over images, TTFT and input tokens
 * against the images per request or their size instead.
 */
final class LadderSection implements ReportSection {

  /** A run of one level has no ladder: {@link DistributionsSection} shows what helps it instead. */
  @Override
  public boolean appliesTo(RunAnalysis a) {
    return a.levels().size() > 1;
  }

  @Override
  public String runText(RunAnalysis a) {
    Optional<ImageLadder> images = ImageLadder.of(a.levels().values());
    return images.isPresent() ? imagesText(images.get()) : kneeText(a);
  }

  private static String imagesText(ImageLadder images) {
    boolean count = images.over() == ImageLadder.Over.COUNT;
    StringBuilder sb =
        new StringBuilder(
            count
                ? "Images per request (TTFT against the count):\n"
                : "Image size (TTFT against the megapixels a request carries):\n");
    int width = images.points().stream().mapToInt(p -> p.level().length()).max().orElse(0);
    for (ImageLadder.Point p : images.points()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-"
                  + Math.max(12, width)
                  + "s %s  mean TTFT %9.2f ms  P99 TTFT %9.2f ms  mean input %8.1f tok%n",
              p.level(),
              count
                  ? String.format(Locale.ROOT, "%3d images", p.images())
                  : String.format(
                      Locale.ROOT,
                      "%3d x %-9s %7.3f MP",
                      p.images(),
                      p.step().size().orElseThrow(),
                      p.megapixels()),
              p.meanTtftMs(),
              p.p99TtftMs(),
              p.meanInputTokens()));
    }
    return sb.append("  ").append(images.verdict()).append('\n').toString();
  }

  private static String kneeText(RunAnalysis a) {
    StringBuilder sb =
        new StringBuilder(
            a.figures().generates()
                ? "Ladder (output throughput basis: "
                : "Ladder (input throughput basis: ");
    sb.append(a.knee().basis().replace('_', ' ')).append("):\n");
    for (String v : a.knee().verdicts()) {
      sb.append("  ").append(v).append('\n');
    }
    return sb.toString();
  }

  @Override
  public List<PagePart> page(RunAnalysis a, RunInfo info) {
    Optional<ImageLadder> images = ImageLadder.of(a.levels().values());
    if (images.isPresent()) {
      List<String> lines = new ArrayList<>(List.of(images.get().verdict()));
      String setting = info.settings() == null ? null : info.settings().get(Images.IMAGES.name());
      if (setting != null) {
        lines.add("Images: " + setting);
      }
      return List.of(
          new PagePart(
              "llm-verdicts",
              "Images ladder",
              List.of(new Heading("Images ladder"), new Bullets("llm-verdicts", lines))),
          new PagePart("llm-ladder", "Against images", imageCharts(images.get())));
    }
    List<Item> charts =
        new ArrayList<>(
            List.of(
                ladderChart(
                    "llm-chart-throughput",
                    (a.figures().generates() ? "Output" : "Input")
                        + " throughput against concurrency ("
                        + a.knee().basis().replace('_', ' ')
                        + ")",
                    "out",
                    "tok/s",
                    "#5E7BE2")));
    if (a.figures().generates()) { // a pooling run (embeddings) has no TPOT, TTFT or output tokens
      charts.add(
          ladderChart("llm-chart-tpot", "Mean TPOT against concurrency", "tpot", "ms", "#68b65c"));
      charts.add(
          ladderChart(
              "llm-chart-ttft", "P99 TTFT against concurrency", "ttftP99", "ms", "#f15b4f"));
    }
    return List.of(
        new PagePart(
            "llm-verdicts",
            "Ladder verdicts",
            List.of(
                new Heading(
                    "Ladder verdicts (throughput basis: "
                        + a.knee().basis().replace('_', ' ')
                        + ")"),
                new Bullets("llm-verdicts", a.knee().verdicts()))),
        new PagePart("llm-ladder", "Against concurrency", charts));
  }

  /** A chart of a figure of the ladder's points ({@code key}) against their concurrency. */
  private static Chart ladderChart(String id, String title, String key, String unit, String color) {
    return Chart.of(id, "ladder")
        .with("title", title)
        .with("key", key)
        .with("unit", unit)
        .with("color", color);
  }

  /** TTFT and input tokens against the images per request (their count or megapixels). */
  private static List<Item> imageCharts(ImageLadder images) {
    boolean size = images.over() == ImageLadder.Over.SIZE;
    String against = size ? "image size (megapixels per request)" : "images per request";
    String axis = size ? "Megapixels of image per request" : "Images per request";
    return List.of(
        Chart.of("llm-chart-images-ttft", "images")
            .with("title", "TTFT against " + against)
            .with("unit", "ms")
            .with("axis", axis)
            .with("decimals", size)
            .with(
                "series",
                List.of(
                    imageSeries("ttft", "Mean TTFT", "#5E7BE2"),
                    imageSeries("ttftP99", "P99 TTFT", "#f15b4f"))),
        Chart.of("llm-chart-images-tokens", "images")
            .with("title", "Input tokens against " + against + " (as the server counts them)")
            .with("unit", "tokens")
            .with("axis", axis)
            .with("decimals", size)
            .with("series", List.of(imageSeries("input", "Mean input tokens", "#68b65c"))));
  }

  private static Map<String, Object> imageSeries(String key, String name, String color) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("key", key);
    s.put("name", name);
    s.put("color", color);
    return s;
  }

  @Override
  public void putChartData(RunAnalysis a, RunInfo info, Map<String, Object> d) {
    d.put("ladder", a.knee().points().stream().map(p -> ladderPoint(a, p)).toList());
    ImageLadder.of(a.levels().values())
        .ifPresent(
            images -> {
              d.put("imagesOver", images.over().name().toLowerCase(Locale.ROOT));
              d.put("images", imagePoints(images));
            });
    d.put("basis", a.knee().basis());
    d.put("knee", marker(a, a.knee().kneeLevel()));
    d.put("saturation", marker(a, a.knee().saturationLevel()));
    d.put("power", marker(a, a.knee().powerLevel()));
  }

  private static Map<String, Object> ladderPoint(RunAnalysis a, Knee.Point p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("level", p.level());
    m.put("c", p.concurrency());
    m.put("out", p.outputThroughput());
    m.put("tpot", p.meanTpotMs());
    m.put("ttftP99", p.p99TtftMs());
    RunAnalysis.Level l = a.levels().get(p.level());
    if (l != null && !l.trials().isEmpty()) {
      String out =
          a.knee().basis().equals(Knee.STEADY_BASIS)
              ? LevelSamples.STEADY_OUTPUT_THROUGHPUT
              : LevelSamples.OUTPUT_THROUGHPUT;
      putInterval(m, "out", l.samples().get(out));
      putInterval(m, "tpot", l.samples().get(LatencyFigure.of(Metric.TPOT, Statistic.MEAN)));
      putInterval(m, "ttftP99", l.samples().get(LatencyFigure.of(Metric.TTFT, Statistic.P99)));
    }
    return m;
  }

  private static List<Map<String, Object>> imagePoints(ImageLadder images) {
    boolean count = images.over() == ImageLadder.Over.COUNT;
    return images.points().stream()
        .map(
            p -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("level", p.level());
              m.put("n", count ? p.images() : p.megapixels());
              m.put("ttft", p.meanTtftMs());
              m.put("ttftP99", p.p99TtftMs());
              m.put("input", p.meanInputTokens());
              return m;
            })
        .toList();
  }

  /** A ladder point's 95% interval across its level's trials, as {@code <key>Low}/{@code High}. */
  private static void putInterval(Map<String, Object> point, String key, TrialValues values) {
    if (values == null) {
      return;
    }
    Interval i = Intervals.acrossTrials(values, LevelSamples.CONFIDENCE);
    if (i.basis() == Interval.Basis.TRIALS) {
      point.put(key + "Low", i.low());
      point.put(key + "High", i.high());
    }
  }

  private static Map<String, Object> marker(RunAnalysis a, String level) {
    if (level == null) {
      return null;
    }
    for (Knee.Point p : a.knee().points()) {
      if (p.level().equals(level)) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("level", level);
        m.put("c", p.concurrency());
        return m;
      }
    }
    return null;
  }
}
