package io.github.llmbench.workload;

import io.github.llmbench.core.Seeds;
import io.github.llmbench.settings.Images;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;

/**
 * The synthetic images of {@code -Dimages}: random pixels of the set size, as vLLM's random-mm
 * makes them, drawn from the seed, the request's number and the image's place in it. The same seed
 * makes the same images; every image of a run differs, so a server's image cache (vLLM caches
 * processed images by their content) never serves one.
 */
public final class SyntheticImages {
  private final Images images;
  private final long seed;

  public SyntheticImages(Images images, long seed) {
    this.images = images;
    this.seed = seed;
  }

  /** Request {@code request}'s {@code count} images, as {@code data:} URIs. */
  public List<String> of(long request, int count) {
    List<String> out = new ArrayList<>(count);
    for (int k = 0; k < count; k++) {
      out.add(dataUri(request, k));
    }
    return out;
  }

  /** Image {@code k} of request {@code request}, as a {@code data:} URI. */
  public String dataUri(long request, int k) {
    return "data:"
        + images.format().mimeType()
        + ";base64,"
        + Base64.getEncoder().encodeToString(encoded(request, k));
  }

  /** The encoded bytes of image {@code k} of request {@code request}. */
  byte[] encoded(long request, int k) {
    BufferedImage img =
        new BufferedImage(images.width(), images.height(), BufferedImage.TYPE_INT_RGB);
    int[] pixels = ((DataBufferInt) img.getRaster().getDataBuffer()).getData();
    SplittableRandom random =
        new SplittableRandom(Seeds.mix(Seeds.mix(seed ^ Seeds.mix(request)) + k));
    for (int i = 0; i < pixels.length; i++) {
      pixels[i] = random.nextInt() & 0xFFFFFF;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(images.width() * images.height());
    try {
      if (!ImageIO.write(img, images.format().id(), out)) {
        throw new IllegalStateException("no " + images.format().id() + " writer in this JVM");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
