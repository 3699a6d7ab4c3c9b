package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.settings.Images;
import io.github.llmbench.workload.SyntheticImages;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator charges an image as the tokens Qwen2-VL's processor makes of it. */
class ImageInputTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ModelSpec VL = Catalog.model("qwen2.5-vl-7b-instruct");

  private static JsonNode chat(List<String> images) {
    ObjectNode body = JSON.createObjectNode();
    var content = body.putArray("messages").addObject().put("role", "user").putArray("content");
    content.addObject().put("type", "text").put("text", "what is it");
    images.forEach(
        u -> content.addObject().put("type", "image_url").putObject("image_url").put("url", u));
    return body.put("max_tokens", 4);
  }

  @Test
  void imagesAreChargedByTheModelsPatchesAndToldApart() {
    assertEquals(28, VL.visionPatchPixels());
    assertEquals(18 * 18, VL.imageTokens(512, 512), "512 / 28 = 18.3, rounded");
    assertEquals(46 * 26, VL.imageTokens(1280, 720));
    assertEquals(1, VL.imageTokens(3, 3), "at least a patch");
    assertTrue(VL.imageTokens(8192, 8192) <= ModelSpec.MAX_IMAGE_TOKENS, "scaled down to fit");
    assertEquals(0, Catalog.model("qwen2.5-7b-instruct").imageTokens(512, 512));

    List<String> two =
        new SyntheticImages(new Images(List.of(2), 512, 512, Images.Format.JPEG), 1).of(0, 2);
    StubTokenizer tok = new StubTokenizer(VL.vocabSize());
    ParsedRequest none = ParsedRequest.parse(chat(List.of()), true, List.of("m"), tok, 32768, VL);
    ParsedRequest with = ParsedRequest.parse(chat(two), true, List.of("m"), tok, 32768, VL);
    assertEquals(2 * (324 + ImageInput.FRAME_TOKENS), with.promptTokens - none.promptTokens);
    assertEquals(2, with.images.size());
    assertEquals(512, with.images.get(0).width());
    assertNotEquals(with.images.get(0).digest(), with.images.get(1).digest());
    ParsedRequest swapped =
        ParsedRequest.parse(
            chat(List.of(two.get(1), two.get(0))), true, List.of("m"), tok, 32768, VL);
    assertNotEquals(
        List.of(with.promptIds), List.of(swapped.promptIds), "the prefix cache tells them apart");
  }

  @Test
  void whatIsNoImageOrAModelThatTakesNoneIsRefusedAsVllmRefusesIt() {
    StubTokenizer tok = new StubTokenizer(VL.vocabSize());
    String url =
        new SyntheticImages(new Images(List.of(1), 8, 8, Images.Format.PNG), 1).dataUri(0, 0);
    ApiError textOnly =
        assertThrows(
            ApiError.class,
            () ->
                ParsedRequest.parse(
                    chat(List.of(url)),
                    true,
                    List.of("m"),
                    tok,
                    32768,
                    Catalog.model("qwen2.5-7b-instruct")));
    assertTrue(textOnly.getMessage().contains("is not a multimodal model"), textOnly.getMessage());
    for (String bad :
        List.of(
            "https://example.com/cat.jpg",
            "data:image/png;base64,@@@",
            "data:image/png;base64,AAAA")) {
      ApiError e =
          assertThrows(
              ApiError.class,
              () -> ParsedRequest.parse(chat(List.of(bad)), true, List.of("m"), tok, 32768, VL));
      assertTrue(e.getMessage().startsWith("image_url: "), e.getMessage());
    }
  }

  @Test
  void aResponsesRequestsInputImagesAreChargedAsChatsImageUrls() throws Exception {
    String url =
        new SyntheticImages(new Images(List.of(1), 56, 56, Images.Format.PNG), 1).dataUri(0, 0);
    JsonNode body =
        JSON.readTree(
            "{\"stream\":true,\"max_output_tokens\":4,\"input\":[{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"input_text\",\"text\":\"hi\"},{\"type\":\"input_image\","
                + "\"image_url\":\""
                + url
                + "\"}]}]}");
    ParsedRequest p =
        ParsedRequest.parse(
            ParsedRequest.responsesAsChat(body),
            true,
            List.of("m"),
            new StubTokenizer(VL.vocabSize()),
            32768,
            VL);
    assertEquals(1, p.images.size());
    assertEquals(2 * 2 + ImageInput.FRAME_TOKENS, p.images.get(0).tokens());
  }
}
