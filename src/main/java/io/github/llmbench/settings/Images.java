package io.github.llmbench.settings;

import io.github.llmbench.core.ImageStep;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The synthetic images a chat request's user message carries ({@code -Dimages}, {@code
 * -Dimage.size}, {@code -Dimage.format}): vLLM's {@code random-mm} dataset's idea, random pixels
 * made from the run's seed, sent as {@code image_url} data URIs. The images group of settings:
 * their definitions, this record of their values, its reader and its checks.
 *
 * @param counts images per request: one count for the run, or several for a ladder over them (a
 *     level per count at the run's one load); empty for none
 * @param sizes the images' size, or several for a ladder over sizes (a level per size at the run's
 *     one load and count)
 */
public record Images(List<Integer> counts, List<ImageStep.Size> sizes, Format format) {

  /** The size of the images when {@code -Dimage.size} is not given. */
  public static final ImageStep.Size DEFAULT_SIZE = new ImageStep.Size(512, 512);

  /** A run without synthetic images. */
  public static final Images NONE = new Images(List.of(), List.of(DEFAULT_SIZE), Format.JPEG);

  /** The most sizes a ladder over them steps through. */
  static final int MAX_SIZES = 16;

  private static final String HEADING = SettingsTable.WORKLOAD;

  public static final Setting<List<Integer>> IMAGES =
      Setting.without(
          HEADING,
          "images",
          "none",
          "whole numbers from 0 to " + ImageStep.MAX_COUNT + ", separated by commas",
          "synthetic images in each chat request's user message, as image_url data URIs (vLLM's"
              + " random-mm); several counts make a ladder over them at the one load",
          Parser.intList(0, ImageStep.MAX_COUNT));
  public static final Setting<List<ImageStep.Size>> IMAGE_SIZE =
      Setting.without(
          HEADING,
          "image.size",
          DEFAULT_SIZE.toString(),
          "WIDTHxHEIGHT in pixels, e.g. 512x512, or several separated by commas",
          "images: the synthetic images' size; several sizes make a ladder over them at the one"
              + " load",
          Images::parseSizes);
  public static final Setting<Images.Format> IMAGE_FORMAT =
      Setting.of(
          HEADING,
          "image.format",
          Images.Format.JPEG,
          "png or jpeg",
          "images: how they are encoded",
          Images.Format::parse);

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS = List.of(IMAGES, IMAGE_SIZE, IMAGE_FORMAT);

  /** Reads the group's settings and refuses a bad value, or a bad pair within the group. */
  static Images read(SettingReader r) {
    Optional<List<Integer>> counts = r.optional(IMAGES);
    if (counts.isEmpty()) {
      for (SettingsTable.Setting<?> s : List.of(IMAGE_SIZE, IMAGE_FORMAT)) {
        if (r.isSet(s)) {
          throw new SettingsException("-D" + s.name() + " applies with -Dimages=N");
        }
      }
      return NONE;
    }
    List<ImageStep.Size> sizes = r.optional(IMAGE_SIZE).orElse(NONE.sizes());
    if (counts.get().size() > 1 && sizes.size() > 1) {
      throw SettingsException.invalid(
          "image.size",
          r.raw(IMAGE_SIZE).get(),
          "one size with a ladder over -Dimages counts (a ladder steps over counts or sizes, not"
              + " both)");
    }
    if (sizes.size() > 1 && counts.get().get(0) == 0) {
      throw SettingsException.invalid(
          "images", "0", "1 or more with a ladder over -Dimage.size (its levels need images)");
    }
    return new Images(counts.get(), sizes, r.get(IMAGE_FORMAT));
  }

  public Images {
    counts = List.copyOf(counts);
    sizes = List.copyOf(sizes);
    if (sizes.isEmpty()) {
      throw new IllegalArgumentException("images need a size");
    }
  }

  /** {@code counts} images a request, all of one size. */
  public Images(List<Integer> counts, int width, int height, Format format) {
    this(counts, List.of(new ImageStep.Size(width, height)), format);
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

  /** Whether the run is a ladder over image counts or sizes. */
  public boolean ladder() {
    return counts.size() > 1 || sizes.size() > 1;
  }

  /**
   * The levels' images of a ladder over counts ({@code img0}, {@code img2}) or over sizes ({@code
   * img2-256x256}, {@code img2-1024x1024}); empty when the run is no ladder over them.
   */
  public List<ImageStep> steps() {
    List<ImageStep> out = new ArrayList<>();
    if (counts.size() > 1) {
      counts.forEach(n -> out.add(ImageStep.of(n)));
    } else if (sizes.size() > 1) {
      sizes.forEach(s -> out.add(ImageStep.of(perRequest(), s)));
    }
    return out;
  }

  /** The images of each request of a run that is not a ladder over their count. */
  public int perRequest() {
    return counts.isEmpty() ? 0 : counts.get(0);
  }

  /** The images' size on a run that is not a ladder over sizes: the first. */
  public ImageStep.Size size() {
    return sizes.get(0);
  }

  public int width() {
    return size().width();
  }

  public int height() {
    return size().height();
  }

  /** These images at {@code size} alone (a level of a ladder over sizes), or as they are. */
  public Images at(Optional<ImageStep.Size> size) {
    return size.map(s -> new Images(counts, List.of(s), format)).orElse(this);
  }

  /**
   * {@code -Dimage.size}'s value: {@code WxH}, or several separated by commas (a ladder over them),
   * each side from 1 to {@value ImageStep#MAX_SIDE} pixels, each size once.
   */
  static List<ImageStep.Size> parseSizes(String name, String raw) {
    String accepted =
        "WIDTHxHEIGHT in pixels, each side from 1 to "
            + ImageStep.MAX_SIDE
            + " (e.g. 512x512), or up to "
            + MAX_SIZES
            + " sizes separated by commas, each once";
    List<ImageStep.Size> out = new ArrayList<>();
    for (String one : raw.split(",", -1)) {
      String[] parts = one.trim().toLowerCase(Locale.ROOT).split("x", -1);
      Optional<ImageStep.Size> size = Optional.empty();
      if (parts.length == 2) {
        try {
          size =
              ImageStep.Size.of(Parser.asciiInt(parts[0].trim()), Parser.asciiInt(parts[1].trim()));
        } catch (NumberFormatException e) {
          // reported below
        }
      }
      if (size.isEmpty() || out.contains(size.get())) {
        throw SettingsException.invalid(name, raw, accepted);
      }
      out.add(size.get());
    }
    if (out.size() > MAX_SIZES) {
      throw SettingsException.invalid(name, raw, accepted);
    }
    return out;
  }
}
