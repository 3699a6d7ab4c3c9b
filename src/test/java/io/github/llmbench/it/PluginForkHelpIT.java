package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.SettingsTable;
import io.github.llmbench.testing.MavenGatlingTest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mvn gatling:test -Dsearch=conc -Dhelp}, the docs' example, through the Gatling plugin and
 * its forked JVM (which gets Maven's {@code -Dhelp} as {@code true}): the fork prints the settings
 * a capacity search accepts and the load shapes it refuses, and ends before any load. The view
 * itself is {@code RunModeSettingsTest}'s; the full list and the topics are {@code BadInputIT}'s.
 */
// builds this project with Maven in its own folder: one at a time (pom.xml, failsafe "alone")
@Tag("alone")
class PluginForkHelpIT {
  @TempDir static Path dir;

  private static String output;
  private static int exit;

  @BeforeAll
  static void runTheUsersCommand() throws Exception {
    MavenGatlingTest.Outcome o =
        MavenGatlingTest.run(
            dir.resolve("mvn.log"),
            240,
            "-Dsearch=conc",
            "-Dhelp",
            "-Dgatling.resultsFolder=" + dir.resolve("results"));
    exit = o.exitCode();
    output = o.output();
  }

  @Test
  void theForkPrintsWhatACapacitySearchAccepts() {
    assertEquals(0, exit, output);
    String expected = SettingsTable.helpFor(Map.of("help", "true", "search", "conc"));
    assertTrue(output.contains(expected), output);
    assertTrue(expected.startsWith("Settings a capacity search (-Dsearch=conc) accepts"), expected);
    assertFalse(output.contains("\n  -Dcandidate.url "), "an A/B run's setting: " + output);
  }

  @Test
  void noLoadIsSent() {
    // the fork got as far as the help: an output without it says nothing of the load
    assertTrue(
        output.contains("Settings a capacity search (-Dsearch=conc) accepts"),
        "the fork printed the help: " + output);
    assertFalse(output.contains("started"), "Gatling started a simulation: " + output);
  }
}
