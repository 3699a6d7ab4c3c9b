package io.github.llmbench.settings;

import io.github.llmbench.settings.SettingsTable.Setting;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * Live export of the client's figures while the run lasts: a Prometheus endpoint ({@code
 * -Dexport.prometheus}) held open a little after the last request ({@code -Dexport.hold}) so a
 * final scrape sees the final counts.
 *
 * @param prometheus where the endpoint listens, empty for none
 * @param holdSeconds how long it stays open after the run
 */
public record ExportSettings(Optional<InetSocketAddress> prometheus, int holdSeconds) {

  private static final String HEADING = SettingsTable.SCALE;

  public static final Setting<String> EXPORT_PROMETHEUS =
      Setting.without(
          HEADING,
          "export.prometheus",
          "none",
          "a port (on 127.0.0.1), or HOST:PORT, e.g. 9464 or 0.0.0.0:9464",
          "serve the client's figures as Prometheus text at /metrics while the run lasts",
          Parser.text());
  public static final Setting<Integer> EXPORT_HOLD =
      Setting.of(
          HEADING,
          "export.hold",
          5,
          "a whole number of seconds from 0 to 600",
          "how long -Dexport.prometheus stays open after the last request, for a final scrape",
          Parser.nonNegativeInt(600));

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<Setting<?>> SETTINGS = List.of(EXPORT_PROMETHEUS, EXPORT_HOLD);

  /** No export. */
  public static final ExportSettings NONE = new ExportSettings(Optional.empty(), 0);

  static ExportSettings read(SettingReader r) {
    Optional<String> raw = r.optional(EXPORT_PROMETHEUS);
    if (raw.isEmpty()) {
      if (r.isSet(EXPORT_HOLD)) {
        throw new SettingsException("-Dexport.hold applies to -Dexport.prometheus=PORT");
      }
      return NONE;
    }
    return new ExportSettings(Optional.of(address(raw.get())), r.get(EXPORT_HOLD));
  }

  private static InetSocketAddress address(String raw) {
    int colon = raw.lastIndexOf(':');
    String host = colon < 0 ? "127.0.0.1" : raw.substring(0, colon);
    String port = raw.substring(colon + 1);
    try {
      int p = Integer.parseInt(port);
      if (p >= 0 && p <= 65535 && !host.isBlank()) {
        return new InetSocketAddress(host, p);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw SettingsException.invalid(
        EXPORT_PROMETHEUS.name(),
        raw,
        "a port from 0 to 65535 (0: any free one), or HOST:PORT, e.g. 9464 or 0.0.0.0:9464");
  }
}
