package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.testing.MavenGatlingTest;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mvn gatling:test -Dgate.run.noise=7%} (a percentage where a log standard deviation is
 * asked): through the Gatling plugin's forked JVM the value arrives and is refused in one line
 * naming it and what is accepted, before any load. What a declared noise does to a gate is {@code
 * StoredBaselineRunNoiseTest}'s and {@code GatesIT}'s.
 */
// builds this project with Maven in its own folder: one at a time (pom.xml, failsafe "alone")
@Tag("alone")
class PluginForkGateNoiseIT {
  @TempDir static Path dir;

  private static MavenGatlingTest.Outcome outcome;

  @BeforeAll
  static void runTheUsersCommand() throws Exception {
    outcome =
        MavenGatlingTest.run(
            dir.resolve("mvn.log"),
            240,
            "-Dgate.run.noise=7%",
            "-Dgatling.resultsFolder=" + dir.resolve("results"));
  }

  private static final String REFUSAL =
      "Invalid -Dgate.run.noise=7%: expected a log standard deviation above 0 and below 1";

  @Test
  void theForkRefusesTheValueInOneLine() {
    assertEquals(1, outcome.exitCode(), "mvn turns the kit's exit 3 into 1: " + outcome.output());
    assertTrue(outcome.output().lines().anyMatch(l -> l.contains(REFUSAL)), outcome.output());
  }

  @Test
  void noLoadIsSent() {
    // the fork got as far as the refusal: an output without it says nothing of the load
    assertTrue(outcome.output().contains(REFUSAL), "the fork refused: " + outcome.output());
    assertFalse(outcome.output().contains("started"), outcome.output());
  }
}
