package io.github.llmbench.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.testing.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunRecorderTest {

  @Test
  void eachRecordIsOnDiskAsSoonAsItFinishes(@TempDir Path dir) throws Exception {
    RunRecorder recorder = new RunRecorder(() -> dir.resolve("llm"));
    recorder.started("a", "c2", null, 1000);
    recorder.finished(TestRecords.ok("c2").id("a").start(1000).ttft(10).build());
    // not closed yet: an aborted run keeps what finished (the writer thread writes it at once)
    Path file = dir.resolve("llm").resolve(RunFiles.REQUESTS);
    long deadline = System.nanoTime() + 2_000_000_000L;
    while ((!Files.exists(file) || Files.size(file) == 0) && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    List<String> lines = Files.readAllLines(file);
    assertEquals(1, lines.size());
    assertTrue(
        lines.get(0).contains("\"id\":\"a\"") && lines.get(0).contains("\"ttft_ms\":10.0"),
        lines.get(0));
  }

  @Test
  void requestsStillInFlightAtTheEndAreRecordedAsFailed(@TempDir Path dir) throws Exception {
    RunRecorder recorder = new RunRecorder(() -> dir);
    recorder.started("a", "c2", null, 1000);
    recorder.started("b", "c2", null, 1001);
    recorder.finished(TestRecords.ok("c2").id("a").start(1000).build());
    List<RequestRecord> all = recorder.close(5000, "unfinished when the run ended");
    assertEquals(2, all.size());
    RequestRecord b = all.get(1);
    assertEquals("b", b.id());
    assertFalse(b.ok());
    assertEquals("unfinished when the run ended", b.error());
    assertEquals(1001, b.startMs());
    assertEquals(5000, b.endMs());
    assertEquals(all, RequestsJsonl.read(dir.resolve(RunFiles.REQUESTS)));
  }

  @Test
  void aRunWithoutRequestsLeavesAnEmptyFile(@TempDir Path dir) throws Exception {
    RunRecorder recorder = new RunRecorder(() -> dir);
    assertEquals(List.of(), recorder.close(1, "x"));
    assertEquals(0, Files.size(dir.resolve(RunFiles.REQUESTS)));
  }

  @Test
  void serverTimingsAreWrittenOnlyWhenTheServerSentThem(@TempDir Path dir) throws Exception {
    RunRecorder recorder = new RunRecorder(() -> dir);
    recorder.started("a", "c2", null, 1000);
    recorder.finished(TestRecords.ok("c2").id("a").start(1000).build());
    ServerTimings t = new ServerTimings(59, 45.791, 3, 4.394, 2.197);
    RequestRecord withTimings = TestRecords.ok("c2").id("b").start(1000).serverTimings(t).build();
    recorder.started("b", "c2", null, 1000);
    recorder.finished(withTimings);
    recorder.close(2000, "unfinished");
    List<String> lines = Files.readAllLines(dir.resolve(RunFiles.REQUESTS));
    assertFalse(lines.get(0).contains("server_timings"), lines.get(0)); // vLLM: lines unchanged
    assertTrue(
        lines.get(1).contains("\"server_timings\":{\"prompt_n\":59,\"prompt_ms\":45.791"),
        lines.get(1));
    List<RequestRecord> read = RequestsJsonl.read(dir.resolve(RunFiles.REQUESTS));
    assertEquals(null, read.get(0).serverTimings());
    assertEquals(t, read.get(1).serverTimings());
  }

  @Test
  void theFolderIsResolvedOnceOnTheWriterThreadWhenTheFirstRequestStarts(@TempDir Path dir)
      throws Exception {
    CountDownLatch lookupMayEnd = new CountDownLatch(1);
    List<String> lookups = new CopyOnWriteArrayList<>();
    RunRecorder recorder =
        new RunRecorder(
            () -> {
              lookups.add(Thread.currentThread().getName());
              try {
                lookupMayEnd
                    .await(); // a lookup that takes its time (the run's folder not found yet)
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return dir;
            });
    Thread.sleep(50);
    assertEquals(List.of(), lookups, "nothing is looked up before a request starts");
    // the event loop's calls return while the lookup waits
    recorder.started("a", "c2", null, 1000);
    recorder.finished(TestRecords.ok("c2").id("a").start(1000).build());
    recorder.started("b", "c2", null, 1001);
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (lookups.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertEquals(List.of("llm-records-writer"), lookups);
    assertEquals(null, recorder.directory(), "not known while the lookup goes on");
    lookupMayEnd.countDown();
    while (recorder.directory() == null && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertEquals(
        dir, recorder.directory(), "known during the run (the metrics scraper writes there)");
    assertEquals(2, recorder.close(2000, "unfinished").size());
    assertEquals(1, lookups.size(), "looked up once");
    assertEquals(2, RequestsJsonl.read(dir.resolve(RunFiles.REQUESTS)).size());
  }
}
