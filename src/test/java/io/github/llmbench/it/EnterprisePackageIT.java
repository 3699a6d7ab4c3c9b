package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code mvn gatling:enterprisePackage} builds the package Gatling Enterprise runs: the kit, its
 * simulations and its data, without Gatling itself (Enterprise brings its own).
 */
// builds this project with Maven in its own folder: one at a time (pom.xml, failsafe "alone")
@Tag("alone")
class EnterprisePackageIT {

  @Test
  void thePackageHoldsTheKitAndItsSimulations() throws Exception {
    Process p =
        new ProcessBuilder("mvn", "-q", "-B", "gatling:enterprisePackage")
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), output);
    assertEquals(0, p.exitValue(), output);
    Path jar;
    try (Stream<Path> s = Files.list(Path.of("target"))) {
      jar =
          s.filter(f -> f.getFileName().toString().endsWith("-shaded.jar"))
              .findFirst()
              .orElseThrow();
    }
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      List<String> names = zip.stream().map(ZipEntry::getName).toList();
      for (String needed :
          List.of(
              "io/github/llmbench/simulations/ServingBenchmarkSimulation.class",
              "io/github/llmbench/simulations/CsvFeederSimulation.class",
              "io/github/llmbench/LlmBench.class",
              "io/github/llmbench/capture/StreamAction.class",
              "prompts/base.txt",
              "my-prompts.csv")) {
        assertTrue(names.contains(needed), needed + " in " + jar);
      }
      assertFalse(
          names.stream().anyMatch(n -> n.startsWith("io/gatling/core/")),
          "Gatling is Enterprise's own");
    }
  }
}
