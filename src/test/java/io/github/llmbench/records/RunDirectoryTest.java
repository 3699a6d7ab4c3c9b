package io.github.llmbench.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {

  private static final Function<String, String> NO_PROPERTIES = Map.<String, String>of()::get;
  private static final Path PROC_FD = Paths.get("/proc/self/fd");

  @Test
  void resultsFolderFromTheCommandLineThenThePropertyThenTheDefault() {
    assertEquals(
        Paths.get("/x/results"),
        RunDirectory.resultsFolder(
            List.of(List.of("-s", "Sim", "--results-folder", "/x/results")), NO_PROPERTIES));
    assertEquals(
        Paths.get("out"),
        RunDirectory.resultsFolder(List.of(List.of("-rf", "out")), NO_PROPERTIES));
    assertEquals(
        Paths.get("p"),
        RunDirectory.resultsFolder(
            List.of(List.of("-s", "Sim")), Map.of("gatling.resultsFolder", "p")::get));
    assertEquals(Paths.get("target/gatling"), RunDirectory.resultsFolder(List.of(), NO_PROPERTIES));
  }

  @Test
  void theFirstArgumentListNamingTheFolderWins() {
    // an @argfile JVM: /proc/self/cmdline lacks Gatling's options, sun.java.command has them
    List<String> cmdline = List.of("java", "@/tmp/gatling-args", "io.gatling.app.Gatling");
    List<String> javaCommand = List.of("io.gatling.app.Gatling", "-rf", "/from/java command");
    List<String> processInfo = List.of("-rf", "/from/process info");
    assertEquals(
        Paths.get("/from/java command"),
        RunDirectory.resultsFolder(
            List.of(cmdline, javaCommand, processInfo), Map.of("gatling.resultsFolder", "p")::get));
    assertEquals(
        Paths.get("/from/process info"),
        RunDirectory.resultsFolder(List.of(cmdline, processInfo, javaCommand), NO_PROPERTIES));
  }

  @Test
  void cmdlineBytesGiveEachArgumentExactly() {
    byte[] cmdline =
        String.join(
                "\0",
                "/usr/bin/java",
                "-Dprompt=a  b",
                "io.gatling.app.Gatling",
                "--simulation",
                "Sim",
                "--results-folder",
                "/tmp/my results/gatling -x",
                "",
                "--launcher",
                "maven",
                "")
            .getBytes(StandardCharsets.UTF_8);
    List<String> args = RunDirectory.cmdlineArguments(cmdline, StandardCharsets.UTF_8);
    assertEquals(
        List.of(
            "/usr/bin/java",
            "-Dprompt=a  b",
            "io.gatling.app.Gatling",
            "--simulation",
            "Sim",
            "--results-folder",
            "/tmp/my results/gatling -x",
            "",
            "--launcher",
            "maven"),
        args);
    assertEquals(
        Paths.get("/tmp/my results/gatling -x"),
        RunDirectory.resultsFolder(List.of(args), NO_PROPERTIES));
    // a read cut before the last NUL keeps what it has; a non-ASCII folder name decodes
    byte[] cut = "java\0-rf\0/tmp/r\u00e9sultats d\u00e9j\u00e0".getBytes(StandardCharsets.UTF_8);
    assertEquals(
        List.of("java", "-rf", "/tmp/r\u00e9sultats d\u00e9j\u00e0"),
        RunDirectory.cmdlineArguments(cut, StandardCharsets.UTF_8));
    assertEquals(List.of(), RunDirectory.cmdlineArguments(new byte[0], StandardCharsets.UTF_8));
  }

  @Test
  void javaCommandRejoinsAResultsFolderWithSpaces() {
    assertEquals(
        List.of(
            "io.gatling.app.Gatling",
            "--simulation",
            "Sim",
            "--results-folder",
            "/tmp/my results/gatling",
            "--launcher",
            "maven"),
        RunDirectory.javaCommandArguments(
            "io.gatling.app.Gatling --simulation Sim --results-folder /tmp/my results/gatling --launcher maven"));
    // two spaces in the path survive; the folder may end the command
    assertEquals(
        List.of("io.gatling.app.Gatling", "-rf", "/tmp/a  b c"),
        RunDirectory.javaCommandArguments("io.gatling.app.Gatling -rf /tmp/a  b c"));
    assertEquals(
        Paths.get("/tmp/a  b c"),
        RunDirectory.resultsFolder(
            List.of(RunDirectory.javaCommandArguments("io.gatling.app.Gatling -rf /tmp/a  b c")),
            NO_PROPERTIES));
    // other arguments are split on spaces as before
    assertEquals(
        List.of("Main", "--simulation", "Sim", "-rf", "out"),
        RunDirectory.javaCommandArguments(" Main  --simulation Sim -rf out "));
    // the option without a value names nothing: the property decides
    assertEquals(
        Paths.get("p"),
        RunDirectory.resultsFolder(
            List.of(RunDirectory.javaCommandArguments("Main -rf")),
            Map.of("gatling.resultsFolder", "p")::get));
  }

  @Test
  void gatlingsLogAmongTheOpenFilesIsTheOneInTheResultsFolder() {
    Path results = Paths.get("/home/user/project/target/gatling");
    Path ours = results.resolve("sim-20261130000000001/simulation.log");
    List<Path> sockets =
        List.of(
            Paths.get("socket:[4711]"),
            Paths.get("pipe:[12]"),
            Paths.get("/usr/lib/jvm/lib/modules"));
    List<Path> open = new ArrayList<>(sockets);
    open.add(ours);
    open.add(
        Paths.get(
            "/elsewhere/old-run/simulation.log")); // a log opened by the simulation's own code
    open.add(
        Paths.get(
            "/home/user/project/target/gatling/sim-20261130000000000/simulation.log (deleted)"));
    assertEquals(Optional.of(ours), RunDirectory.ownSimulationLog(open, Optional.of(results)));
    // the results folder read wrong (or unreadable): the only log open is still this process's
    assertEquals(
        Optional.of(ours),
        RunDirectory.ownSimulationLog(
            List.of(sockets.get(0), ours), Optional.of(Paths.get("/other/results"))));
    assertEquals(
        Optional.of(ours), RunDirectory.ownSimulationLog(List.of(ours, ours), Optional.empty()));
    // two to choose from, or none: cannot tell
    Path second = results.resolve("sim-20261130000000002/simulation.log");
    assertEquals(
        Optional.empty(),
        RunDirectory.ownSimulationLog(List.of(ours, second), Optional.of(results)));
    assertEquals(
        Optional.empty(),
        RunDirectory.ownSimulationLog(
            List.of(ours, Paths.get("/elsewhere/old-run/simulation.log")),
            Optional.of(Paths.get("/other/results"))));
    assertEquals(Optional.empty(), RunDirectory.ownSimulationLog(sockets, Optional.of(results)));
  }

  @Test
  void theRunFolderIsTheOneWhoseLogThisProcessHoldsOpenNotTheNewest(@TempDir Path results)
      throws Exception {
    assumeTrue(Files.isDirectory(PROC_FD), "needs /proc/self/fd (Linux)");
    long created = System.currentTimeMillis();
    Path ours = Files.createDirectories(results.resolve("sim-20261130000000000"));
    Path newer =
        Files.createDirectories(results.resolve("sim-20261130000000500")); // another process's run
    Files.writeString(newer.resolve("simulation.log"), "x");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    try (RandomAccessFile log =
        new RandomAccessFile(
            ours.resolve("simulation.log").toFile(), "rw")) { // as Gatling's writer
      Path llm =
          RunDirectory.llmFolder(results, "sim", created, PROC_FD, Duration.ZERO, printTo(console));
      assertEquals(
          ours.resolve("llm"),
          llm,
          "named as the results folder is, in the run that holds its log open");
      assertTrue(Files.isDirectory(llm));
    }
    assertFalse(Files.exists(newer.resolve("llm")));
    assertEquals(
        "", console.toString(StandardCharsets.UTF_8), "nothing to say when the folder is found");
  }

  @Test
  void aFolderOfItsOwnWhenTheOpenLogsFolderAlreadyHasAnotherRunsFiles(@TempDir Path results)
      throws Exception {
    assumeTrue(Files.isDirectory(PROC_FD), "needs /proc/self/fd (Linux)");
    Path ours = Files.createDirectories(results.resolve("sim-20261130000000000"));
    Files.createDirectory(
        ours.resolve("llm")); // two runs in one millisecond share Gatling's folder
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    try (RandomAccessFile log =
        new RandomAccessFile(ours.resolve("simulation.log").toFile(), "rw")) {
      Path llm =
          RunDirectory.llmFolder(
              results, "sim", System.currentTimeMillis(), PROC_FD, Duration.ZERO, printTo(console));
      assertOwnFolder(results, llm);
      assertTrue(
          console.toString(StandardCharsets.UTF_8).contains(llm.toString()),
          console.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void onLinuxNoOpenLogMeansAFolderOfItsOwnNeverAClaim(
      @TempDir Path results, @TempDir Path noOpenFiles) throws Exception {
    Path lone = Files.createDirectories(results.resolve("sim-20261130000000000"));
    Files.writeString(
        lone.resolve("simulation.log"),
        "x"); // new and unclaimed, but not held open by this process
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    Path llm =
        RunDirectory.llmFolder(
            results,
            "sim",
            System.currentTimeMillis() - 10,
            noOpenFiles,
            Duration.ZERO,
            printTo(console));
    assertOwnFolder(results, llm);
    assertFalse(Files.exists(lone.resolve("llm")));
    String said = console.toString(StandardCharsets.UTF_8);
    assertTrue(
        said.contains("no simulation.log among this process's open files")
            && said.contains(llm.toString()),
        said);
  }

  @Test
  void withoutOpenFilesToReadTheOnlyNewUnclaimedRunIsClaimedOnce(@TempDir Path results)
      throws Exception {
    Path noProc = results.resolve("no-proc"); // macOS, Windows
    Path old = Files.createDirectories(results.resolve("sim-20260101000000000"));
    Files.writeString(old.resolve("simulation.log"), "x");
    Files.setLastModifiedTime(old.resolve("simulation.log"), FileTime.fromMillis(1_000_000));
    long created = System.currentTimeMillis();
    Path lone = Files.createDirectories(results.resolve("sim-20261130000000000"));
    Files.writeString(lone.resolve("simulation.log"), "x");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    Path first =
        RunDirectory.llmFolder(results, "sim", created, noProc, Duration.ZERO, printTo(console));
    assertEquals(lone.resolve("llm"), first);
    assertTrue(console.toString(StandardCharsets.UTF_8).contains(first.toString()), "says where");
    // a second run that cannot tell either: the folder is taken, so one of its own
    console.reset();
    Path second =
        RunDirectory.llmFolder(results, "sim", created, noProc, Duration.ZERO, printTo(console));
    assertOwnFolder(results, second);
    assertTrue(
        console.toString(StandardCharsets.UTF_8).contains(second.toString()),
        console.toString(StandardCharsets.UTF_8));
    assertFalse(
        Files.exists(old.resolve("llm")), "a run from before the simulation is never taken");
  }

  @Test
  void withoutOpenFilesToReadTwoNewRunsAreNotToldApart(@TempDir Path results) throws Exception {
    long created = System.currentTimeMillis();
    for (String run : List.of("sim-20261130000000000", "sim-20261130000000001")) {
      Files.writeString(
          Files.createDirectories(results.resolve(run)).resolve("simulation.log"), "x");
    }
    assertTrue(RunDirectory.singleUnclaimedRun(results, created).isEmpty());
    Path llm =
        RunDirectory.llmFolder(
            results,
            "sim",
            created,
            results.resolve("no-proc"),
            Duration.ZERO,
            printTo(new ByteArrayOutputStream()));
    assertOwnFolder(results, llm);
  }

  @Test
  void ofRunsClaimingOneFolderAtOnceOneGetsIt(@TempDir Path results) throws Exception {
    Path run = Files.createDirectories(results.resolve("sim-20261130000000000"));
    int claimants = 8;
    CyclicBarrier together = new CyclicBarrier(claimants);
    ExecutorService pool = Executors.newFixedThreadPool(claimants);
    try {
      List<Future<Optional<Path>>> claims = new ArrayList<>();
      for (int i = 0; i < claimants; i++) {
        claims.add(
            pool.submit(
                () -> {
                  together.await();
                  return RunDirectory.claim(run);
                }));
      }
      int won = 0;
      for (Future<Optional<Path>> c : claims) {
        won += c.get().isPresent() ? 1 : 0;
      }
      assertEquals(1, won);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFolderOfItsOwnIsNewEachTime(@TempDir Path results) {
    long start = System.currentTimeMillis();
    Path a =
        RunDirectory.ownLlmFolder(
            results.resolve("not-yet"), "servingbenchmarksimulation", start, 4242);
    Path b =
        RunDirectory.ownLlmFolder(
            results.resolve("not-yet"), "servingbenchmarksimulation", start, 4242);
    assertTrue(
        a.getParent().getFileName().toString().startsWith("llm-servingbenchmarksimulation-"),
        a.toString());
    assertTrue(a.getParent().getFileName().toString().endsWith("-4242"), a.toString());
    assertTrue(Files.isDirectory(a) && Files.isDirectory(b) && !a.equals(b), a + " " + b);
  }

  @Test
  void theSimulationsIdAsGatlingNamesItsFolders() {
    assertEquals(
        "servingbenchmarksimulation",
        RunDirectory.simulationId(
            List.of(
                List.of(
                    "--simulation",
                    "io.github.llmbench.simulations.ServingBenchmarkSimulation",
                    "-rf",
                    "out"))));
    assertEquals("my-sim", RunDirectory.simulationId(List.of(List.of("-s", "My_Sim"))));
    assertEquals("", RunDirectory.simulationId(List.of(List.of("-rf", "out"))));
  }

  private static void assertOwnFolder(Path results, Path llm) {
    assertEquals("llm", llm.getFileName().toString());
    assertEquals(results, llm.getParent().getParent());
    String name = llm.getParent().getFileName().toString();
    assertTrue(
        name.startsWith("llm-sim-") && name.endsWith("-" + ProcessHandle.current().pid()), name);
    assertTrue(Files.isDirectory(llm), llm.toString());
  }

  private static PrintStream printTo(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }
}
