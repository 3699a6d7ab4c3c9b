package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestOrigin.Side;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.summary.AbFigures;
import io.github.llmbench.testing.MavenGatlingTest;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An A/A run in blocks of fresh deployments, as a user types it: {@code mvn gatling:test
 * -Dserve.cmd=... -Dcandidate.serve.cmd=...}, both the kit's simulator as a server process with a
 * lasting per-process speed offset ({@code --process-sd 0.05}) and {@code --log-requests}, three
 * blocks of two pairs. Checked from the servers' side: each block's two processes were new (their
 * own pids, in their own logs), each request reached once the process of its side and its block,
 * and no process outlived the run.
 */
// builds this project with Maven in its own folder: one at a time (pom.xml, failsafe "alone")
@Tag("alone")
class AbFreshDeploymentsIT {
  @TempDir static Path dir;

  private static final String SERVER =
      "simulator --model sim-tiny --gpu rtx4090 --process-sd 0.05 --log-requests";

  private static MavenGatlingTest.Outcome outcome;
  private static Path llm;
  private static AbFigures ab;
  private static List<RequestRecord> records;

  /** Each request id a server log names: its side ("a", "b") and block. */
  private static final Map<String, String> receivedAt = new HashMap<>();

  private static final Map<String, Integer> receivedCount = new HashMap<>();

  /** Each log's pid, by its name ({@code a-2}). */
  private static final Map<String, Long> logPids = new HashMap<>();

  private static final Pattern LOG = Pattern.compile("server-([ab])-(\\d+)\\.log");
  private static final Pattern PID = Pattern.compile("listening on .*, pid (\\d+)\\)");
  private static final Pattern REQUEST = Pattern.compile("^request (\\S+) model ");

  @BeforeAll
  static void runBlocksOfFreshServers() throws Exception {
    Path results = dir.resolve("results");
    outcome =
        MavenGatlingTest.run(
            dir.resolve("mvn.log"),
            420,
            "-Dserve.cmd=" + SERVER,
            "-Dcandidate.serve.cmd=" + SERVER,
            "-Dgate.tpot.mean=+10%",
            "-Dab.max.blocks=3",
            "-Dab.block.pairs=2",
            "-Dconc=2",
            "-Dduration=2",
            "-Dinput.len=32",
            "-Doutput.len=24",
            "-Dwarmup.prompts=2",
            "-Dseed=5",
            "-Dgatling.resultsFolder=" + results);
    Path summary;
    try (Stream<Path> files = Files.walk(results)) {
      summary =
          files
              .filter(p -> p.getFileName().toString().equals("summary.json"))
              .findFirst()
              .orElse(null);
    }
    assertNotNull(summary, outcome.output());
    llm = summary.getParent();
    Path runDir = llm.getParent();
    ab = TestReports.summary(runDir).run().ab();
    records = RequestsJsonl.read(RunFiles.ofRun(runDir).requests());
    try (Stream<Path> files = Files.list(Path.of(ab.serverLogs()))) {
      for (Path log : files.toList()) {
        Matcher m = LOG.matcher(log.getFileName().toString());
        if (!m.matches()) {
          continue;
        }
        String at = m.group(1) + "-" + m.group(2);
        for (String line : Files.readAllLines(log)) {
          Matcher pid = PID.matcher(line);
          if (pid.find()) {
            logPids.put(at, Long.parseLong(pid.group(1)));
          }
          Matcher request = REQUEST.matcher(line);
          if (request.find()) {
            receivedAt.put(request.group(1), at);
            receivedCount.merge(request.group(1), 1, Integer::sum);
          }
        }
      }
    }
  }

  @Test
  void eachBlockRanOnTwoProcessesStartedForIt() {
    assertNotNull(ab, outcome.output());
    assertEquals("block", ab.unit());
    assertEquals(3, ab.blocks().size(), outcome.output());
    Set<Long> pids = new HashSet<>();
    for (AbFigures.Block b : ab.blocks()) {
      assertEquals(b.pidA(), logPids.get("a-" + b.block()), "A's log of block " + b.block());
      assertEquals(b.pidB(), logPids.get("b-" + b.block()), "B's log of block " + b.block());
      pids.add(b.pidA());
      pids.add(b.pidB());
    }
    assertEquals(6, pids.size(), "six processes, none of them twice: " + ab.blocks());
  }

  @Test
  void eachRequestReachedOnceTheProcessOfItsSideAndItsBlock() {
    assertEquals(
        records.stream().map(RequestRecord::id).collect(Collectors.toSet()),
        receivedAt.keySet(),
        "the requests the servers logged are the ones recorded");
    assertTrue(receivedCount.values().stream().allMatch(n -> n == 1), receivedCount.toString());
    Map<Integer, Integer> blockOfPair = new HashMap<>();
    ab.pairs().forEach(p -> blockOfPair.put(p.pair(), p.block()));
    int measured = 0;
    for (RequestRecord r : records) {
      int pair = RequestOrigin.pairOf(r.origin());
      if (pair == 0) { // the warmup, before the first block's pairs, on its servers
        assertTrue(receivedAt.get(r.id()).endsWith("-1"), r.id() + " " + receivedAt.get(r.id()));
        continue;
      }
      measured++;
      String side = RequestOrigin.sideOf(r.origin()) == Side.A ? "a" : "b";
      assertEquals(side + "-" + blockOfPair.get(pair), receivedAt.get(r.id()), r.id());
    }
    assertTrue(measured > 0, "measured requests");
  }

  @Test
  void eachBlockHoldsTwoPairsInBalancedOrder() {
    assertEquals(6, ab.pairs().size(), ab.pairs().toString());
    for (int block = 1; block <= 3; block++) {
      AbFigures.Pair first = ab.pairs().get(2 * block - 2);
      AbFigures.Pair second = ab.pairs().get(2 * block - 1);
      assertEquals(block, first.block());
      assertEquals(block, second.block());
      assertNotEquals(first.first(), second.first(), "AB then BA in block " + block);
    }
  }

  @Test
  void theGateLooksOncePerBlock() {
    AbFigures.GateTrack gate = ab.gates().get(0);
    assertEquals(3, gate.logRatios().size(), gate.toString());
    assertEquals(3, gate.pairsUsed());
    assertTrue(outcome.output().contains("A/B block 3 (pairs 5-6):"), outcome.output());
    // the exit status follows the verdict: an A/A run fails only on a false alarm
    assertEquals(gate.decision().equals("FAIL") ? 1 : 0, outcome.exitCode(), outcome.output());
  }

  @Test
  void theGateLineSaysEachBlockRanOnProcessesOfItsOwn() {
    assertTrue(
        outcome.output().contains("interleaved pairs, 3 blocks, sd of a block's log ratio"),
        outcome.output());
    assertTrue(
        outcome.output().contains("each block on two processes started for it"), outcome.output());
  }

  @Test
  void noServerProcessOutlivesTheRun() {
    assertFalse(logPids.isEmpty(), outcome.output());
    for (long pid : logPids.values()) {
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid);
    }
  }
}
