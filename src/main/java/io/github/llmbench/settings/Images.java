package io.github.llmbench.settings;

import java.util.List;
import java.util.Locale;

/**
 * The synthetic images a chat request's user message carries ({@code -Dimages}, {@code
 * -Dimage.size}, {@code -Dimage.format}): vLLM's {@code random-mm} dataset's idea, random pixels
 * made from the run's seed, sent as {@code image_url} data URIs.
 *
 * @param counts images per request: one count for the run, or several for a ladder over them (a
 *     level per count at the run's one load); empty for none
 */
public record Images(List<Integer> counts, int width, int height, Format format) {

  /** A run without synthetic images. */
  public static final Images NONE = new Images(List.of(), 512, 512, Format.JPEG);

  /** The most pixels on an image's side. */
  static final int MAX_SIDE = 8192;

  public Images {
    counts = List.copyOf(counts);
  }

  /** How an image is encoded in its data URI. */
  public enum Format {
    PNG("image/png"),
    /** vLLM's random-mm encodes its images as JPEG. */
    JPEG("image/jpeg");

    private final String mimeType;

    Format(String mimeType) {
      this.mimeType = mimeType;
    }

    public String mimeType() {
      return mimeType;
    }

    /** The name as {@code javax.imageio} knows the writer, and as written in {@code -D}. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Format parse(String name, String raw) {
      for (Format f : values()) {
        if (f.id().equals(raw.toLowerCase(Locale.ROOT))) {
          return f;
        }
      }
      throw SettingsException.invalid(name, raw, "png or jpeg");
    }
  }

  /** Whether any request carries an image. */
  public boolean any() {
    return counts.stream().anyMatch(c -> c > 0);
  }

  /** Whether the run is a ladder over image counts. */
  public boolean ladder() {
    return counts.size() > 1;
  }

  /** The images of each request of a run that is not a ladder over them. */
  public int perRequest() {
    return counts.isEmpty() ? 0 : counts.get(0);
  }

  /** {@code WxH}, as {@code -Dimage.size} takes it. */
  public String size() {
    return width + "x" + height;
  }

  /** An image's width and height in pixels. */
  public record Size(int width, int height) {
    @Override
    public String toString() {
      return width + "x" + height;
    }
  }

  /** {@code -Dimage.size}'s value: {@code WxH}, each side from 1 to {@value #MAX_SIDE} pixels. */
  static Size parseSize(String name, String raw) {
    String[] parts = raw.toLowerCase(Locale.ROOT).split("x", -1);
    if (parts.length == 2) {
      try {
        int w = Integer.parseInt(parts[0].trim());
        int h = Integer.parseInt(parts[1].trim());
        if (w >= 1 && w <= MAX_SIDE && h >= 1 && h <= MAX_SIDE) {
          return new Size(w, h);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw SettingsException.invalid(
        name, raw, "WIDTHxHEIGHT in pixels, each from 1 to " + MAX_SIDE + " (e.g. 512x512)");
  }
}
