package io.github.llmbench.settings;

import io.github.llmbench.settings.SettingsTable.Setting;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The injector group of settings: this process's part of a load shared by several injectors ({@code
 * -Dinjector=i/N}), and when they start ({@code -Dstart.at}).
 *
 * @param index i, from 0 (Kubernetes' {@code JOB_COMPLETION_INDEX})
 * @param count N
 * @param startAtMs when every injector starts its first phase (epoch ms), if set
 * @param drainSeconds the fixed timeline's allowance after each level's duration (and for a warmup)
 */
public record InjectorSettings(int index, int count, OptionalLong startAtMs, int drainSeconds) {

  private static final String HEADING = SettingsTable.SCALE;
  private static final Parser<String> TEXT = Parser.text();

  public static final Setting<String> INJECTOR =
      Setting.without(
          HEADING,
          "injector",
          "0/1",
          "i/N with 0 <= i < N",
          "this process is injector i of N sharing the load",
          TEXT);
  public static final Setting<String> START_AT =
      Setting.without(
          HEADING,
          "start.at",
          "none",
          "epoch ms or an ISO-8601 instant",
          "when the first phase starts (every injector)",
          TEXT);
  public static final Setting<Integer> DRAIN =
      Setting.of(
          HEADING,
          "drain",
          30,
          "a whole number of seconds from 0",
          "a shared ladder's time after each level's duration",
          Parser.nonNegativeInt(LoadSettings.MAX_SECONDS));

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS = List.of(INJECTOR, START_AT, DRAIN);

  public static final InjectorSettings ALONE =
      new InjectorSettings(0, 1, OptionalLong.empty(), DRAIN.typedDefault().orElseThrow());

  public boolean sharded() {
    return count > 1;
  }

  /**
   * This injector's share of {@code n} (concurrency, prompts): the shares differ by at most one.
   */
  public int share(int n) {
    return n / count + (index < n % count ? 1 : 0);
  }

  @Override
  public String toString() {
    return index + "/" + count;
  }

  /** Reads the group's settings and refuses a bad value. */
  static InjectorSettings read(SettingReader r) {
    Optional<String> raw = r.optional(INJECTOR);
    int index = 0;
    int count = 1;
    if (raw.isPresent()) {
      String accepted =
          "i/N with 0 <= i < N, e.g. 0/2 (Kubernetes' JOB_COMPLETION_INDEX / the number of injectors)";
      String[] parts = raw.get().split("/", -1);
      try {
        if (parts.length != 2) {
          throw new NumberFormatException();
        }
        index = Parser.asciiInt(parts[0].trim());
        count = Parser.asciiInt(parts[1].trim());
      } catch (NumberFormatException e) {
        throw SettingsException.invalid("injector", raw.get(), accepted);
      }
      if (count < 1 || index < 0 || index >= count || count > 1000) {
        throw SettingsException.invalid("injector", raw.get(), accepted);
      }
    }
    OptionalLong startAt = OptionalLong.empty();
    Optional<String> at = r.optional(START_AT);
    if (at.isPresent()) {
      try {
        startAt =
            OptionalLong.of(
                at.get().matches("\\d+")
                    ? Parser.asciiLong(at.get())
                    : Instant.parse(at.get()).toEpochMilli());
      } catch (RuntimeException e) {
        throw SettingsException.invalid(
            "start.at",
            at.get(),
            "epoch milliseconds or an ISO-8601 instant, e.g. 2026-12-01T10:00:00Z");
      }
    }
    int drain = r.get(DRAIN);
    return new InjectorSettings(index, count, startAt, drain);
  }
}
