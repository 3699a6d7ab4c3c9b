package io.github.llmbench.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MetricsSetupTest {
  /** Nothing listens on port 1: the server's /metrics is refused at once. */
  private static final URI NO_SERVER = URI.create("http://127.0.0.1:1");

  private final PrintStream err = new PrintStream(new ByteArrayOutputStream(), true);

  @Test
  void anIntervalOfZeroScrapesNothingAndSaysHowToTurnItOn() {
    MetricsSetup off =
        MetricsSetup.of(
            List.of(NO_SERVER), Map.of(), Optional.of("key"), List.of(), 0, () -> null, err);
    assertNull(off.scraper());
    assertEquals("off (-Dmetrics.interval=0)", off.note());
  }

  @Test
  void aServerWithoutMetricsIsLeftOutAndTheOtherEndpointsAreScraped() {
    MetricsSetup none =
        MetricsSetup.of(
            List.of(NO_SERVER), Map.of(), Optional.empty(), List.of(), 1, () -> null, err);
    assertNull(none.scraper(), "nothing to scrape");
    assertTrue(
        none.note().startsWith("none from the server (GET http://127.0.0.1:1/metrics: "),
        none.note());

    URI dcgm = URI.create("http://127.0.0.1:2/metrics");
    MetricsSetup other =
        MetricsSetup.of(
            List.of(NO_SERVER), Map.of(), Optional.empty(), List.of(dcgm), 2.5, () -> null, err);
    assertNotNull(other.scraper());
    assertTrue(
        other.note().endsWith(" + GET " + dcgm + ", every 2.5 s, to llm/server-metrics.jsonl"),
        other.note());
  }
}
