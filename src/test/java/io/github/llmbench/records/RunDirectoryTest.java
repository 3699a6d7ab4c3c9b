package io.github.llmbench.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {

  private static final Function<String, String> NO_PROPERTIES = Map.<String, String>of()::get;

  @Test
  void resultsFolderFromTheCommandLineThenThePropertyThenTheDefault() {
    assertEquals(Paths.get("/x/results"), RunDirectory.resultsFolder(
        List.of(List.of("-s", "Sim", "--results-folder", "/x/results")), NO_PROPERTIES));
    assertEquals(Paths.get("out"), RunDirectory.resultsFolder(List.of(List.of("-rf", "out")), NO_PROPERTIES));
    assertEquals(Paths.get("p"), RunDirectory.resultsFolder(
        List.of(List.of("-s", "Sim")), Map.of("gatling.resultsFolder", "p")::get));
    assertEquals(Paths.get("target/gatling"), RunDirectory.resultsFolder(List.of(), NO_PROPERTIES));
  }

  @Test
  void theFirstArgumentListNamingTheFolderWins() {
    // an @argfile JVM: /proc/self/cmdline lacks Gatling's options, sun.java.command has them
    List<String> cmdline = List.of("java", "@/tmp/gatling-args", "io.gatling.app.Gatling");
    List<String> javaCommand = List.of("io.gatling.app.Gatling", "-rf", "/from/java command");
    List<String> processInfo = List.of("-rf", "/from/process info");
    assertEquals(Paths.get("/from/java command"), RunDirectory.resultsFolder(
        List.of(cmdline, javaCommand, processInfo), Map.of("gatling.resultsFolder", "p")::get));
    assertEquals(Paths.get("/from/process info"), RunDirectory.resultsFolder(
        List.of(cmdline, processInfo, javaCommand), NO_PROPERTIES));
  }

  @Test
  void cmdlineBytesGiveEachArgumentExactly() {
    byte[] cmdline = String.join("\0", "/usr/bin/java", "-Dprompt=a  b", "io.gatling.app.Gatling",
            "--simulation", "Sim", "--results-folder", "/tmp/my results/gatling -x", "", "--launcher",
            "maven", "")
        .getBytes(StandardCharsets.UTF_8);
    List<String> args = RunDirectory.cmdlineArguments(cmdline, StandardCharsets.UTF_8);
    assertEquals(List.of("/usr/bin/java", "-Dprompt=a  b", "io.gatling.app.Gatling", "--simulation",
        "Sim", "--results-folder", "/tmp/my results/gatling -x", "", "--launcher", "maven"), args);
    assertEquals(Paths.get("/tmp/my results/gatling -x"), RunDirectory.resultsFolder(List.of(args), NO_PROPERTIES));
    // a read cut before the last NUL keeps what it has; a non-ASCII folder name decodes
    byte[] cut = "java\0-rf\0/tmp/r\u00e9sultats d\u00e9j\u00e0".getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("java", "-rf", "/tmp/r\u00e9sultats d\u00e9j\u00e0"),
        RunDirectory.cmdlineArguments(cut, StandardCharsets.UTF_8));
    assertEquals(List.of(), RunDirectory.cmdlineArguments(new byte[0], StandardCharsets.UTF_8));
  }

  @Test
  void javaCommandRejoinsAResultsFolderWithSpaces() {
    assertEquals(
        List.of("io.gatling.app.Gatling", "--simulation", "Sim", "--results-folder", "/tmp/my results/gatling",
            "--launcher", "maven"),
        RunDirectory.javaCommandArguments(
            "io.gatling.app.Gatling --simulation Sim --results-folder /tmp/my results/gatling --launcher maven"));
    // two spaces in the path survive; the folder may end the command
    assertEquals(List.of("io.gatling.app.Gatling", "-rf", "/tmp/a  b c"),
        RunDirectory.javaCommandArguments("io.gatling.app.Gatling -rf /tmp/a  b c"));
    assertEquals(Paths.get("/tmp/a  b c"), RunDirectory.resultsFolder(
        List.of(RunDirectory.javaCommandArguments("io.gatling.app.Gatling -rf /tmp/a  b c")), NO_PROPERTIES));
    // other arguments are split on spaces as before
    assertEquals(List.of("Main", "--simulation", "Sim", "-rf", "out"),
        RunDirectory.javaCommandArguments(" Main  --simulation Sim -rf out "));
    // the option without a value names nothing: the property decides
    assertEquals(Paths.get("p"), RunDirectory.resultsFolder(
        List.of(RunDirectory.javaCommandArguments("Main -rf")), Map.of("gatling.resultsFolder", "p")::get));
  }

  @Test
  void newestRunStartedAfterTheSimulation(@TempDir Path results) throws Exception {
    Path old = Files.createDirectories(results.resolve("sim-20260101000000000"));
    Files.writeString(old.resolve("simulation.log"), "x");
    Files.setLastModifiedTime(old.resolve("simulation.log"), FileTime.fromMillis(1_000_000));
    long start = System.currentTimeMillis();
    assertTrue(RunDirectory.newestRun(results, start).isEmpty());
    Path now = Files.createDirectories(results.resolve("sim-20261130000000000"));
    Files.writeString(now.resolve("simulation.log"), "x");
    assertEquals(now, RunDirectory.newestRun(results, start).get());
  }
}
