package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.ReceivedImage;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ReceivedOnce;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -Dimages=0,2,4 -Dimage.size=512x512}: a ladder over images against a vision model's
 * simulator, which logs the images it received. Each request of a level carries that many images,
 * each a decodable 512x512 image, none sent twice in the run; the server charges them as tokens,
 * and TTFT grows with the count on the console, in {@code summary.json} and in {@code llm.html}.
 */
class ImagesIT {
  private static final SimulatorConfig VISION =
      SimulatorConfig.defaults().withModel("qwen2.5-vl-7b-instruct").withGpu("rtx4090");

  private static GatlingRun.Result run(VllmSimulator sim, Path results, Map<String, String> props) {
    Map<String, String> all = new HashMap<>(props);
    all.put("base.url", sim.baseUrl());
    GatlingRun.Result run = GatlingRun.run(ServingBenchmarkSimulation.class, results, all);
    assertEquals(0, run.exitCode(), run.console());
    return run;
  }

  @Test
  void aLadderOverImagesSendsDistinctImagesAndTtftGrowsWithTheirCount(@TempDir Path results)
      throws Exception {
    try (VllmSimulator sim = VllmSimulator.start(VISION)) {
      GatlingRun.Result run =
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
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(18, records.size());
      assertTrue(records.stream().allMatch(RequestRecord::ok), "all OK");
      Map<String, String> levelOf =
          records.stream().collect(Collectors.toMap(RequestRecord::id, RequestRecord::level));

      // the server's side: each request once, with its level's images, all 512x512 and distinct
      ReceivedOnce.assertEachReceivedOnce(records, sim);
      List<VllmSimulator.Received> received = sim.received();
      Set<String> digests = new HashSet<>();
      for (VllmSimulator.Received r : received) {
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

      // the server's input tokens count each image: 18 x 18 patches of 28 px, and 2 around it
      Map<String, Double> meanInput =
          records.stream()
              .collect(
                  Collectors.groupingBy(
                      RequestRecord::level, Collectors.averagingInt(RequestRecord::inputTokens)));
      assertEquals(2 * 326, meanInput.get("c2-img2") - meanInput.get("c2-img0"), 1e-9);
      assertEquals(4 * 326, meanInput.get("c2-img4") - meanInput.get("c2-img0"), 1e-9);

      JsonNode summary = new ObjectMapper().readTree(run.llm("summary.json").toFile());
      JsonNode levels = summary.path("levels");
      JsonNode ladder = summary.path("image_ladder");
      assertEquals(326, ladder.path("input_tokens_per_image").asDouble(), 1e-9, ladder.toString());
      assertTrue(ladder.path("ms_per_image").asDouble() > 0, ladder.toString());
      assertEquals(4, ladder.path("levels").get(2).path("images").asInt(), ladder.toString());
      double ttft0 = levels.path("c2-img0").path("mean_ttft_ms").asDouble();
      double ttft2 = levels.path("c2-img2").path("mean_ttft_ms").asDouble();
      double ttft4 = levels.path("c2-img4").path("mean_ttft_ms").asDouble();
      assertTrue(ttft0 > 0 && ttft0 < ttft2 && ttft2 < ttft4, ttft0 + " " + ttft2 + " " + ttft4);
      assertTrue(run.console().contains("Images per request (TTFT against the count):"));
      assertTrue(run.console().contains("Each image adds"), run.console());
      Path page = run.runDir().resolve("llm.html");
      String html = Files.readString(page);
      assertTrue(html.contains("llm-chart-images-ttft"), "the TTFT-against-images chart");
      assertTrue(html.contains("\"images\":[{\"level\":\"c2-img0\",\"n\":0"), html);
      assertFalse(html.contains("id=\"llm-chart-tpot\""), "no chart against concurrency");
      assertTrue(
          html.contains("<li>Images: [0, 2, 4] per request, a level each, 512x512 jpeg"), html);
      // against images (TTFT, input tokens), in flight, tokens arriving, the roofline
      Chromium.assertChartsDrawn(Chromium.open(page), 5);
    }
  }

  @Test
  void twoImagesOfTheSetSizeGoWithEveryRequest(@TempDir Path results) throws Exception {
    try (VllmSimulator sim = VllmSimulator.start(VISION)) {
      GatlingRun.Result run =
          run(
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
      assertTrue(run.console().contains("2 per request, 320x200 png"), run.console());
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
      assertTrue(
          RequestsJsonl.read(run.llm("requests.jsonl")).stream()
              .allMatch(r -> r.ok() && r.level().equals("c2")),
          "one level, no ladder");
    }
  }

  @Test
  void aLadderOverImageSizesSendsEachLevelsSizeAndTtftGrowsWithThePixels(@TempDir Path results)
      throws Exception {
    try (VllmSimulator sim = VllmSimulator.start(VISION)) {
      GatlingRun.Result run =
          run(
              sim,
              results,
              Map.of(
                  "conc", "2",
                  "prompts", "4",
                  "images", "1",
                  "image.size", "896x896,224x224",
                  "input.len", "16",
                  "output.len", "4"));
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
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
      JsonNode ladder =
          new ObjectMapper().readTree(run.llm("summary.json").toFile()).path("image_ladder");
      assertEquals("size", ladder.path("over").asText(), ladder.toString());
      assertEquals("224x224", ladder.path("levels").get(0).path("size").asText());
      assertEquals("896x896", ladder.path("levels").get(1).path("size").asText());
      // Qwen2-VL's tokens: a 28-pixel patch each, 8x8 at 224, 32x32 at 896
      assertEquals(
          (32 * 32 - 8 * 8) / ((896 * 896 - 224 * 224) / 1e6),
          ladder.path("input_tokens_per_megapixel").asDouble(),
          1e-6,
          ladder.toString());
      assertTrue(
          ladder.path("levels").get(0).path("mean_ttft_ms").asDouble()
              < ladder.path("levels").get(1).path("mean_ttft_ms").asDouble(),
          ladder.toString());
      assertTrue(ladder.path("ms_per_image").isNull(), ladder.toString());
      String console = run.console();
      assertTrue(
          console.contains("Image size (TTFT against the megapixels a request carries):"), console);
      assertTrue(
          console.contains("  c2-img1-224x224   1 x 224x224     0.050 MP  mean TTFT"), console);
      assertTrue(console.contains("Each megapixel of image a request adds"), console);
      assertTrue(
          console.contains("1 per request, [896x896, 224x224], a level each, jpeg"), console);
      Path page = run.runDir().resolve("llm.html");
      assertTrue(
          Files.readString(page).contains("\"imagesOver\":\"size\""),
          "the charts' axis: megapixels");
      Chromium.assertChartsDrawn(Chromium.open(page), 5);
    }
  }
}
