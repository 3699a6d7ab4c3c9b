package io.github.llmbench.simulator;

import io.github.llmbench.catalog.ModelSpec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * An {@code image_url} content part as the simulator takes it: a {@code data:} URI (it fetches
 * nothing), whose width and height are read from the image's header, charged as the model's vision
 * tokens ({@link ModelSpec#imageTokens}) plus the two that open and close an image in Qwen2-VL's
 * template.
 */
final class ImageInput {
  /** The tokens around each image in the prompt ({@code <|vision_start|>}, {@code _end|>}). */
  static final int FRAME_TOKENS = 2;

  private ImageInput() {}

  /** The image at {@code url}, for {@code model}; an {@link ApiError} (400) when it is none. */
  static ReceivedImage read(String url, ModelSpec model) {
    if (model == null || model.visionPatchPixels() == 0) {
      throw ApiError.badRequest(
          (model == null ? "The model" : model.hfId())
              + " is not a multimodal model: it takes no image_url content parts",
          "messages");
    }
    int comma = url.indexOf(',');
    if (!url.startsWith("data:image/")
        || comma < 0
        || !url.substring(0, comma).endsWith(";base64")) {
      throw ApiError.badRequest(
          "image_url: the simulator takes images as data:image/...;base64, URIs only", "messages");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(url.substring(comma + 1));
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest("image_url: the data URI's base64 is malformed", "messages");
    }
    int[] size = size(bytes);
    return new ReceivedImage(
        size[0], size[1], model.imageTokens(size[0], size[1]) + FRAME_TOKENS, digest(bytes));
  }

  private static String digest(byte[] bytes) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(bytes);
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JVM has SHA-256
    }
  }

  /** Width and height from the image's header, without decoding its pixels. */
  private static int[] size(byte[] bytes) {
    try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
      Iterator<ImageReader> readers = in == null ? null : ImageIO.getImageReaders(in);
      if (readers != null && readers.hasNext()) {
        ImageReader reader = readers.next();
        try {
          reader.setInput(in, true, true);
          return new int[] {reader.getWidth(0), reader.getHeight(0)};
        } finally {
          reader.dispose();
        }
      }
    } catch (IOException | RuntimeException e) {
      // reported below
    }
    throw ApiError.badRequest("image_url: cannot identify the image file", "messages");
  }
}
