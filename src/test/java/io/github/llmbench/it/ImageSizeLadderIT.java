package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulator.ReceivedImage;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.summary.ImageLadderFigures;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ReceivedOnce;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code -Dimages=1 -Dimage.size=896x896,224x224}: a ladder over image sizes, run once for the
 * class. Each level's requests carry its size, and TTFT grows with the megapixels a request
 * carries.
 */
class ImageSizeLadderIT {
  @TempDir static Path results;

  private static VllmSimulator sim;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;
  private static ImageLadderFigures ladder;

  @BeforeAll
  static void runALadderOverImageSizes() throws Exception {
    sim = VllmSimulator.start(ImagesIT.VISION);
    run =
        ImagesIT.run(
            sim,
            results,
            Map.of(
                "conc", "2",
                "prompts", "4",
                "images", "1",
                "image.size", "896x896,224x224",
                "input.len", "16",
                "output.len", "4"));
    records = RequestsJsonl.read(run.llm("requests.jsonl"));
    ladder = TestReports.summary(run.runDir()).imageLadder();
  }

  @AfterAll
  static void stopTheSimulator() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void eachLevelsRequestsCarryOneDistinctImageOfItsSize() {
    assertEquals(8, records.size());
    ReceivedOnce.assertEachReceivedOnce(records, sim);
    Map<String, String> levelOf =
        records.stream().collect(Collectors.toMap(RequestRecord::id, RequestRecord::level));
    Set<String> digests = new HashSet<>();
    for (VllmSimulator.Received r : sim.received()) {
      assertEquals(1, r.images().size(), r.toString());
      ReceivedImage image = r.images().get(0);
      assertEquals(
          levelOf.get(r.requestId()),
          "c2-img1-" + image.width() + "x" + image.height(),
          "each level's requests carry its size");
      assertTrue(digests.add(image.digest()), "an image sent twice: " + image);
    }
  }

  @Test
  void theSummaryLadderStepsOverSizesSmallestFirst() {
    assertEquals("size", ladder.over(), ladder.toString());
    assertEquals("224x224", ladder.levels().get(0).size());
    assertEquals("896x896", ladder.levels().get(1).size());
    assertNull(ladder.msPerImage(), ladder.toString());
  }

  @Test
  void theSummaryFitsTheInputTokensOfAMegapixel() {
    // Qwen2-VL's tokens: a 28-pixel patch each, 8x8 at 224, 32x32 at 896
    assertEquals(
        (32 * 32 - 8 * 8) / ((896 * 896 - 224 * 224) / 1e6),
        ladder.inputTokensPerMegapixel(),
        1e-6,
        ladder.toString());
  }

  @Test
  void meanTtftGrowsWithTheSize() {
    assertTrue(
        ladder.levels().get(0).meanTtftMs() < ladder.levels().get(1).meanTtftMs(),
        ladder.toString());
  }

  @Test
  void theConsoleShowsTheImageSizeBlock() {
    String console = run.console();
    assertTrue(
        console.contains("Image size (TTFT against the megapixels a request carries):"), console);
    assertTrue(
        console.contains("  c2-img1-224x224   1 x 224x224     0.050 MP  mean TTFT"), console);
    assertTrue(console.contains("Each megapixel of image a request adds"), console);
    assertTrue(console.contains("1 per request, [896x896, 224x224], a level each, jpeg"), console);
  }

  @Test
  void thePageChartsOnAMegapixelAxis() throws Exception {
    assertTrue(
        Files.readString(run.runDir().resolve("llm.html")).contains("\"imagesOver\":\"size\""),
        "the charts' axis: megapixels");
  }

  @Test
  @Tag("chromium")
  void thePageDrawsItsCharts() throws Exception {
    // the simulator's (simulated) GPU power among them
    Chromium.assertChartsDrawn(Chromium.open(run.runDir().resolve("llm.html")), 6);
  }
}
