package io.github.llmbench.core;

import java.util.Optional;
import java.util.regex.Matcher;

/**
 * A step of a ladder over images: the images each request of a level carries, and their size when
 * the ladder steps over sizes ({@code -Dimage.size=256x256,1024x1024}); without a size the run's
 * one size applies. Tagged {@code img2} or {@code img2-512x512}.
 *
 * @param count images per request, 0 to {@value #MAX_COUNT}
 * @param size the images' size on a ladder over sizes, else empty
 */
public record ImageStep(int count, Optional<Size> size) {

  /** The most images a request of an image ladder's level carries. */
  public static final int MAX_COUNT = 999;

  /** The most pixels on an image's side. */
  public static final int MAX_SIDE = 8192;

  static final String TAG = "img([0-9]{1,3})(?:-([0-9]{1,4})x([0-9]{1,4}))?";

  public ImageStep {
    if (count < 0 || count > MAX_COUNT) {
      throw new IllegalArgumentException(
          "images per request must be 0 to " + MAX_COUNT + ", not " + count);
    }
  }

  /** {@code count} images of the run's size. */
  public static ImageStep of(int count) {
    return new ImageStep(count, Optional.empty());
  }

  /** {@code count} images of {@code size}. */
  public static ImageStep of(int count, Size size) {
    return new ImageStep(count, Optional.of(size));
  }

  /** {@code img2}, or {@code img2-512x512} on a ladder over sizes. */
  public String tag() {
    return "img" + count + size.map(s -> "-" + s).orElse("");
  }

  /**
   * The step a level's tag names, as {@link #TAG}'s groups from {@code first} matched it: empty
   * when they matched nothing, or a size out of range.
   */
  static Optional<ImageStep> fromGroups(Matcher m, int first) {
    if (m.group(first) == null) {
      return Optional.empty();
    }
    int count = Integer.parseInt(m.group(first));
    if (m.group(first + 1) == null) {
      return Optional.of(of(count));
    }
    return Size.of(Integer.parseInt(m.group(first + 1)), Integer.parseInt(m.group(first + 2)))
        .map(s -> of(count, s));
  }

  /** An image's width and height in pixels, each from 1 to {@value #MAX_SIDE}. */
  public record Size(int width, int height) {
    public Size {
      if (!fits(width, height)) {
        throw new IllegalArgumentException(
            "an image's sides must be 1 to " + MAX_SIDE + " pixels, not " + width + "x" + height);
      }
    }

    /** The size, or empty when a side is out of range. */
    public static Optional<Size> of(int width, int height) {
      return fits(width, height) ? Optional.of(new Size(width, height)) : Optional.empty();
    }

    private static boolean fits(int width, int height) {
      return width >= 1 && width <= MAX_SIDE && height >= 1 && height <= MAX_SIDE;
    }

    /** Its pixels. */
    public long pixels() {
      return (long) width * height;
    }

    /** {@code WxH}, as {@code -Dimage.size} takes it and a level's tag ends. */
    @Override
    public String toString() {
      return width + "x" + height;
    }
  }
}
