package io.github.llmbench.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped manifest, rendered; each pod's command run by a shell with Kubernetes' index and a
 * stand-in mvn.
 */
class KubernetesJobTest {
  private static final long NOW = 1_800_000_000_000L;

  private static String rendered(String... args) throws Exception {
    return KubernetesJob.render(
        Files.readString(KubernetesJob.TEMPLATE), KubernetesJob.options(args), NOW);
  }

  @Test
  void eachPodRunsItsInjectorWithTheSameStartAndSeed(@TempDir Path dir) throws Exception {
    String yaml =
        rendered(
            "--injectors",
            "3",
            "--image",
            "registry.example/gatling-llm-bench:1",
            "--seed",
            "42",
            "--args",
            "-Dbase.url=http://vllm-router:8000 -Dconc=512 -Dduration=300");
    assertTrue(
        yaml.contains("  completionMode: Indexed\n  completions: 3\n  parallelism: 3\n"), yaml);
    assertTrue(!yaml.contains("{{"), "every placeholder filled: " + yaml);
    assertEquals(
        2, yaml.split("(?m)^kind: Job$").length - 1, "the injectors' Job and the merge Job");
    assertTrue(yaml.contains("-ge 3 ]"), "the merge waits for 3 run folders");
    String command =
        yaml.lines()
            .map(String::strip)
            .filter(l -> l.startsWith("exec mvn -q -o gatling:test"))
            .findFirst()
            .orElseThrow();

    // a stand-in mvn that prints its arguments, one a line
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path mvn = bin.resolve("mvn");
    Files.writeString(mvn, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    long startAt = NOW + 180_000;
    for (int i = 0; i < 3; i++) {
      ProcessBuilder pb = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true);
      pb.environment().put("JOB_COMPLETION_INDEX", String.valueOf(i));
      pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
      Process p = pb.start();
      List<String> args =
          new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
      assertEquals(0, p.waitFor());
      assertEquals(
          List.of(
              "-q",
              "-o",
              "gatling:test",
              "-Dinjector=" + i + "/3",
              "-Dstart.at=" + startAt,
              "-Dseed=42",
              "-Dgatling.resultsFolder=/results/injector-" + i,
              "-Dbase.url=http://vllm-router:8000",
              "-Dconc=512",
              "-Dduration=300"),
          args);
    }
  }

  @Test
  void badOptionsAreOneLine() {
    assertEquals(
        "Missing --image: expected e.g. --injectors 4 --image registry/gatling-llm-bench:1 --args '-Dbase.url=http://vllm:8000 -Dconc=512 -Dduration=300'",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    KubernetesJob.options(
                        new String[] {"--injectors", "2", "--args", "-Dbase.url=http://h:1"}))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    KubernetesJob.options(
                        new String[] {
                          "--injectors",
                          "2",
                          "--image",
                          "i",
                          "--args",
                          "-Dbase.url=http://h:1 -Dinjector=0/2"
                        }))
            .getMessage()
            .contains("expected no -Dinjector="));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    KubernetesJob.options(
                        new String[] {"--injectors", "2", "--image", "i", "--args", "-Dconc=8"}))
            .getMessage()
            .contains("expected -Dbase.url="));
    assertEquals(
        "Invalid --injectors=0: expected a whole number from 1 to 1000",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    KubernetesJob.options(
                        new String[] {
                          "--injectors", "0", "--image", "i", "--args", "-Dbase.url=http://h:1"
                        }))
            .getMessage());
  }
}
