package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulator.ReceivedImage;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.testing.GatlingRun;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dimages=2 -Dimage.size=320x200 -Dimage.format=png}: one level whose every request carries
 * two distinct images of the set size, run once for the class.
 */
class FixedImagesIT {
  @TempDir static Path results;

  private static VllmSimulator sim;
  private static GatlingRun.Result run;

  @BeforeAll
  static void runTwoImagesPerRequest() {
    sim = VllmSimulator.start(ImagesIT.VISION);
    run =
        ImagesIT.run(
            sim,
            results,
            Map.of(
                "conc", "2",
                "prompts", "4",
                "images", "2",
                "image.size", "320x200",
                "image.format", "png",
                "input.len", "16",
                "output.len", "4"));
  }

  @AfterAll
  static void stopTheSimulator() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void theConsoleSaysTheImagesOfEachRequest() {
    assertTrue(run.console().contains("2 per request, 320x200 png"), run.console());
  }

  @Test
  void everyRequestCarriesTwoDistinctImagesOfTheSetSize() {
    Set<String> digests = new HashSet<>();
    for (VllmSimulator.Received r : sim.received()) {
      assertEquals(2, r.images().size(), r.toString());
      for (ReceivedImage image : r.images()) {
        assertEquals(320, image.width());
        assertEquals(200, image.height());
        assertTrue(digests.add(image.digest()), "an image sent twice: " + image);
      }
    }
    assertEquals(8, digests.size());
  }

  @Test
  void theRunIsOneLevelNotALadder() throws Exception {
    assertTrue(
        RequestsJsonl.read(run.llm("requests.jsonl")).stream()
            .allMatch(r -> r.ok() && r.level().equals("c2")),
        "one level, no ladder");
  }
}
