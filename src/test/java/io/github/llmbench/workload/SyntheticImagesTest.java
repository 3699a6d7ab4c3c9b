package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.endpoints.Endpoints;
import io.github.llmbench.settings.Images;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticImagesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static BufferedImage decode(String dataUri, String mime) throws Exception {
    String head = "data:" + mime + ";base64,";
    assertTrue(dataUri.startsWith(head), dataUri.substring(0, 40));
    return ImageIO.read(
        new ByteArrayInputStream(Base64.getDecoder().decode(dataUri.substring(head.length()))));
  }

  @Test
  void imagesDecodeAtTheirSizeDifferPerRequestAndRepeatWithTheSeed() throws Exception {
    for (Images.Format format : Images.Format.values()) {
      Images settings = new Images(List.of(2), 64, 48, format);
      SyntheticImages images = new SyntheticImages(settings, 7);
      Set<String> seen = new HashSet<>();
      for (long request = 0; request < 5; request++) {
        List<String> urls = images.of(request, 2);
        assertEquals(2, urls.size());
        for (String url : urls) {
          BufferedImage img = decode(url, format.mimeType());
          assertEquals(64, img.getWidth(), format.id());
          assertEquals(48, img.getHeight(), format.id());
          assertTrue(seen.add(url), "each image of a run differs");
        }
      }
      assertEquals(images.of(3, 2), new SyntheticImages(settings, 7).of(3, 2), "the same seed");
      assertNotEquals(images.of(3, 2), new SyntheticImages(settings, 8).of(3, 2), "another seed");
    }
  }

  @Test
  void aSupplyHandsOutItsRequestsImagesInTurnMadeAheadOrNot() {
    Images settings = new Images(List.of(1), 16, 16, Images.Format.PNG);
    SyntheticImages images = new SyntheticImages(settings, 3);
    ImageSupply supply = new ImageSupply(images, settings, 2, 1, 2, 30); // injector 1 of 2
    for (long n = 1; n < 60; n += 2) {
      assertEquals(images.of(n, 2), supply.next(), "request " + n);
    }
    assertEquals(images.of(61, 2), supply.next(), "past its count, made when asked");
  }

  @Test
  void imagesGoIntoTheLastUserMessageAsImageUrlOrInputImageParts() throws Exception {
    RequestSpec spec =
        RequestSpec.ofPrompt("describe", 8, null, 3).withImages(List.of("data:a", "data:b"));
    JsonNode chat =
        JSON.readTree(new RequestBodies(Endpoints.CHAT, "m", JSON.createObjectNode()).body(spec));
    JsonNode content = chat.path("messages").get(0).path("content");
    assertEquals("user", chat.path("messages").get(0).path("role").asText());
    assertEquals(
        JSON.readTree(
            "[{\"type\":\"text\",\"text\":\"describe\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:a\"}},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:b\"}}]"),
        content);
    JsonNode responses =
        JSON.readTree(
            new RequestBodies(Endpoints.RESPONSES, "m", JSON.createObjectNode()).body(spec));
    assertEquals(
        JSON.readTree(
            "[{\"type\":\"input_text\",\"text\":\"describe\"},"
                + "{\"type\":\"input_image\",\"image_url\":\"data:a\"},"
                + "{\"type\":\"input_image\",\"image_url\":\"data:b\"}]"),
        responses.path("input").get(0).path("content"));
    // a feeder record carries them as OpenAI's content parts, and reads them back
    Map<String, Object> record = FeederRecords.of(spec);
    assertEquals(spec, FeederRecords.read(record::get, 8));
    assertEquals(2, spec.imageCount());
    assertEquals(spec, spec.withImages(List.of()), "no images, the same request");
  }

  @Test
  void aDatasetFilesMessagesMayCarryImageUrlParts(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("mm.jsonl");
    Files.writeString(
        file,
        "{\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"what is it?\"},{\"type\":\"image_url\","
            + "\"image_url\":{\"url\":\"https://example.com/cat.jpg\"}}]}]}\n");
    RequestSpec r = FileDataset.read(file, 16, 1).request(0, null);
    assertEquals("be brief", r.messages().get(0).content());
    assertEquals("what is it?", r.messages().get(1).content());
    assertEquals(List.of("https://example.com/cat.jpg"), r.messages().get(1).images());
    Files.writeString(
        file, "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"audio\"}]}]}\n");
    String error =
        org.junit.jupiter.api.Assertions.assertThrows(
                DatasetException.class, () -> FileDataset.read(file, 16, 1))
            .getMessage();
    assertTrue(error.contains("line 1") && error.contains("image_url"), error);
  }
}
