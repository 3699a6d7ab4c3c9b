package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.ReceivedImage;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.summary.ImageLadderFigures;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ReceivedOnce;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dimages=0,2,4 -Dimage.size=512x512}: a ladder over images against a vision model's
 * simulator, which logs the images it received, run once for the class. Each request of a level
 * carries that many images, each a decodable 512x512 image, none sent twice in the run; the server
 * charges them as tokens, and the kit reads TTFT against the count on the console, in {@code
 * summary.json} and in {@code llm.html}: each level's mean TTFT is its records', what an image adds
 * their line's slope. How much an image adds is the simulator's timing, and a busy machine blurs a
 * few ms of it: it is printed, not bounded (that TTFT grew at each step failed on a busy machine).
 * The other image runs: {@link FixedImagesIT}, {@link ImageSizeLadderIT}.
 */
class ImagesIT {
  static final SimulatorConfig VISION =
      SimulatorConfig.defaults().withModel("qwen2.5-vl-7b-instruct").withGpu("rtx4090");

  @TempDir static Path results;

  private static VllmSimulator sim;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;
  private static Summary summary;

  /** A run of the benchmark against the simulator, which must end well. */
  static GatlingRun.Result run(VllmSimulator sim, Path results, Map<String, String> props) {
    Map<String, String> all = new HashMap<>(props);
    all.put("base.url", sim.baseUrl());
    GatlingRun.Result run = GatlingRun.run(ServingBenchmarkSimulation.class, results, all);
    assertEquals(0, run.exitCode(), run.console());
    return run;
  }

  @BeforeAll
  static void runALadderOverImages() throws Exception {
    sim = VllmSimulator.start(VISION);
    run =
        run(
            sim,
            results,
            Map.of(
                "conc", "2",
                "prompts", "6",
                "images", "0,2,4",
                "image.size", "512x512",
                "input.len", "32",
                "output.len", "8"));
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
    summary = TestReports.summary(run.runDir());
  }

  @AfterAll
  static void stopTheSimulator() {
    if (sim != null) {
      sim.close();
    }
  }

  private static double meanTtftMs(String level) {
    return summary
        .levels()
        .get(level)
        .figures()
        .latency(LatencyFigure.of(Metric.TTFT, Statistic.MEAN));
  }

  @Test
  void everyRequestSucceedsAndReachesTheServerOnce() {
    assertEquals(18, records.size());
    assertTrue(records.stream().allMatch(RequestRecord::ok), "all OK");
    ReceivedOnce.assertEachReceivedOnce(records, sim);
  }

  @Test
  void eachRequestCarriesItsLevelsCountOfDistinct512x512Images() {
    Map<String, String> levelOf =
        records.stream().collect(Collectors.toMap(RequestRecord::id, RequestRecord::level));
    Set<String> digests = new HashSet<>();
    for (VllmSimulator.Received r : sim.received()) {
      String level = levelOf.get(r.requestId());
      int expected = Integer.parseInt(level.substring(level.indexOf("-img") + 4));
      assertEquals(expected, r.images().size(), level + ": " + r);
      for (ReceivedImage image : r.images()) {
        assertEquals(512, image.width(), r.toString());
        assertEquals(512, image.height(), r.toString());
        assertTrue(digests.add(image.digest()), "an image sent twice: " + image);
      }
    }
    assertEquals(6 * 2 + 6 * 4, digests.size());
  }

  @Test
  void theServerChargesEachImageAsItsPatchTokens() {
    // 18 x 18 patches of 28 px, and 2 around it
    Map<String, Double> meanInput =
        records.stream()
            .collect(
                Collectors.groupingBy(
                    RequestRecord::level, Collectors.averagingInt(RequestRecord::inputTokens)));
    assertEquals(2 * 326, meanInput.get("c2-img2") - meanInput.get("c2-img0"), 1e-9);
    assertEquals(4 * 326, meanInput.get("c2-img4") - meanInput.get("c2-img0"), 1e-9);
  }

  /** The mean TTFT of a level's records. */
  private static double recordsMeanTtftMs(String level) {
    return records.stream()
        .filter(r -> r.level().equals(level))
        .mapToDouble(RequestRecord::ttftMs)
        .average()
        .orElseThrow();
  }

  @Test
  void theSummaryFitsWhatAnImageAddsToTheServersTokens() {
    ImageLadderFigures ladder = summary.imageLadder();
    assertEquals(326, ladder.inputTokensPerImage(), 1e-9, ladder.toString());
  }

  @Test
  void eachLadderPointIsItsLevelsImagesAndTheMeanTtftOfItsRecords() {
    List<ImageLadderFigures.Point> points = summary.imageLadder().levels();
    assertEquals(
        List.of("c2-img0", "c2-img2", "c2-img4"),
        points.stream().map(ImageLadderFigures.Point::level).toList(),
        "in order of the count");
    for (ImageLadderFigures.Point p : points) {
      assertEquals(
          Integer.parseInt(p.level().substring(p.level().indexOf("-img") + 4)),
          p.images(),
          p.toString());
      assertEquals(recordsMeanTtftMs(p.level()), p.meanTtftMs(), 1e-6, p.toString());
      assertEquals(meanTtftMs(p.level()), p.meanTtftMs(), 1e-6, "as the level's figures say");
    }
  }

  /** What an image adds to TTFT: the least-squares slope of the points' mean TTFT on the count. */
  @Test
  void whatAnImageAddsToTtftIsTheSlopeOfItsLevelsMeans() {
    ImageLadderFigures ladder = summary.imageLadder();
    double[] x = ladder.levels().stream().mapToDouble(ImageLadderFigures.Point::images).toArray();
    double[] y = ladder.levels().stream().mapToDouble(p -> recordsMeanTtftMs(p.level())).toArray();
    double mx = Arrays.stream(x).average().orElseThrow();
    double my = Arrays.stream(y).average().orElseThrow();
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < x.length; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
    }
    System.out.println("ImagesIT: each image adds " + ladder.msPerImage() + " ms of mean TTFT");
    assertEquals(sxy / sxx, ladder.msPerImage(), 1e-6, ladder.toString());
  }

  @Test
  void theConsoleShowsTheImagesBlock() {
    assertTrue(run.console().contains("Images per request (TTFT against the count):"));
    assertTrue(run.console().contains("Each image adds"), run.console());
  }

  @Test
  void thePageChartsAgainstTheImagesNotTheConcurrency() throws Exception {
    String html = Files.readString(run.runDir().resolve("llm.html"));
    assertTrue(html.contains("llm-chart-images-ttft"), "the TTFT-against-images chart");
    assertTrue(html.contains("\"images\":[{\"level\":\"c2-img0\",\"n\":0"), html);
    assertFalse(html.contains("id=\"llm-chart-tpot\""), "no chart against concurrency");
    assertTrue(
        html.contains("<li>Images: [0, 2, 4] per request, a level each, 512x512 jpeg"), html);
  }

  @Test
  @Tag("chromium")
  void thePageDrawsItsCharts() throws Exception {
    // against images (TTFT, input tokens), in flight, tokens arriving, the roofline, the
    // simulator's (simulated) GPU power
    Chromium.assertChartsDrawn(Chromium.open(run.runDir().resolve("llm.html")), 6);
  }
}
