package io.github.llmbench.settings;

import io.github.llmbench.settings.SettingsTable.Setting;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Live export of the client's figures while the run lasts: a Prometheus endpoint ({@code
 * -Dexport.prometheus}) held open a little after the last request ({@code -Dexport.hold}) so a
 * final scrape sees the final counts, and a push over OTLP/HTTP ({@code -Dexport.otlp}) to an
 * OpenTelemetry Collector or any OTLP receiver.
 *
 * @param prometheus where the endpoint listens, empty for none
 * @param holdSeconds how long it stays open after the run
 * @param otlp where and how often the figures are pushed over OTLP, empty for no push
 */
public record ExportSettings(
    Optional<InetSocketAddress> prometheus, int holdSeconds, Optional<Otlp> otlp) {

  /**
   * The OTLP push.
   *
   * @param url the OTLP/HTTP base URL: metrics go to {@code url/v1/metrics}, spans to {@code
   *     url/v1/traces}
   * @param intervalSeconds how often the metrics are pushed
   * @param spans whether each finished request is also sent as a span
   */
  public record Otlp(URI url, int intervalSeconds, boolean spans) {}

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

  private static final String OTLP_ACCEPTED =
      "an http:// or https:// OTLP/HTTP base URL with a host and no user, query or fragment, e.g."
          + " http://127.0.0.1:4318";

  public static final Setting<URI> EXPORT_OTLP =
      Setting.without(
          HEADING,
          "export.otlp",
          "none",
          OTLP_ACCEPTED,
          "push the client's figures over OTLP/HTTP (to URL/v1/metrics) while the run lasts, and"
              + " once more at its end",
          ExportSettings::otlpUrl);
  public static final Setting<Integer> EXPORT_OTLP_INTERVAL =
      Setting.of(
          HEADING,
          "export.otlp.interval",
          5,
          "a whole number of seconds from 1 to 600",
          "how often -Dexport.otlp pushes the figures",
          Parser.positiveInt(600));
  public static final Setting<Boolean> EXPORT_OTLP_SPANS =
      Setting.of(
          HEADING,
          "export.otlp.spans",
          false,
          "true or false",
          "with -Dexport.otlp, also send one span per finished request (to URL/v1/traces)",
          Parser.trueOrFalse());

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<Setting<?>> SETTINGS =
      List.of(EXPORT_PROMETHEUS, EXPORT_HOLD, EXPORT_OTLP, EXPORT_OTLP_INTERVAL, EXPORT_OTLP_SPANS);

  /** No export. */
  public static final ExportSettings NONE =
      new ExportSettings(Optional.empty(), 0, Optional.empty());

  static ExportSettings read(SettingReader r) {
    Optional<Otlp> otlp = otlp(r);
    Optional<String> raw = r.optional(EXPORT_PROMETHEUS);
    if (raw.isEmpty()) {
      if (r.isSet(EXPORT_HOLD)) {
        throw new SettingsException("-Dexport.hold applies to -Dexport.prometheus=PORT");
      }
      return new ExportSettings(Optional.empty(), 0, otlp);
    }
    return new ExportSettings(Optional.of(address(raw.get())), r.get(EXPORT_HOLD), otlp);
  }

  private static Optional<Otlp> otlp(SettingReader r) {
    Optional<URI> url = r.optional(EXPORT_OTLP);
    if (url.isEmpty()) {
      for (Setting<?> s : List.of(EXPORT_OTLP_INTERVAL, EXPORT_OTLP_SPANS)) {
        if (r.isSet(s)) {
          throw new SettingsException("-D" + s.name() + " applies to -Dexport.otlp=URL");
        }
      }
      return Optional.empty();
    }
    return Optional.of(new Otlp(url.get(), r.get(EXPORT_OTLP_INTERVAL), r.get(EXPORT_OTLP_SPANS)));
  }

  /**
   * The base URL without a trailing slash. A URL with user info is refused, and its user info is
   * masked in the message: the exporter would not send it, and a password must not reach a log.
   */
  static URI otlpUrl(String name, String raw) {
    URI uri;
    try {
      uri = new URI(raw);
    } catch (URISyntaxException e) {
      throw SettingsException.invalid(name, withoutUserInfo(raw), OTLP_ACCEPTED);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw SettingsException.invalid(name, withoutUserInfo(raw), OTLP_ACCEPTED);
    }
    String s = uri.toString();
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return URI.create(s);
  }

  /** The text with anything between a scheme's {@code //} and an {@code @} masked. */
  private static String withoutUserInfo(String raw) {
    return raw.replaceFirst("^([^:/?#]*://)[^/?#]*@", "$1***@");
  }

  private static InetSocketAddress address(String raw) {
    int colon = raw.lastIndexOf(':');
    String host = colon < 0 ? "127.0.0.1" : raw.substring(0, colon);
    String port = raw.substring(colon + 1);
    try {
      int p = Parser.asciiInt(port);
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
