package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.PacedServer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's times are the server's, to well under a millisecond: a server sending a chunk every 7.3
 * ms reads 7.3 ms (a whole-millisecond clock would read 7 or 8), each gap matched with the server's
 * own send gap of the same two chunks through {@code x-request-id}.
 */
class ChunkTimingIT {

  @Test
  void aServerSendingEvery7point3MsReads7point3Ms(@TempDir Path results) throws Exception {
    try (PacedServer server = PacedServer.start(PacedServer.Pacing.ofMillis(10, 7.3, 200), 0, 1)) {
      GatlingRun.Result run =
          GatlingRun.run(
              FixedRequestsSimulation.class,
              results,
              Map.of(
                  "base.url", server.baseUrl(),
                  "conc", "8",
                  "it.requests", "16",
                  "input.len", "16",
                  "output.len", "200"));
      assertEquals(0, run.exitCode());
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(16, records.size());
      Map<String, PacedServer.StreamRecord> sent = new HashMap<>();
      for (PacedServer.StreamRecord s : server.takeRecords()) {
        sent.put(s.id(), s);
      }

      int gaps = 0;
      int wholeMs = 0;
      long[] errorMicros = new long[16 * 199];
      double[] itls = new double[16 * 199];
      double[] serverGaps = new double[16 * 199];
      // the second half by start: the first 1,600 chunks run the reading code in the interpreter
      // and
      // the JIT's first tiers, which is not what a benchmark's steady window sees
      List<RequestRecord> later =
          records.stream()
              .sorted(Comparator.comparingLong(RequestRecord::startMs))
              .skip(8)
              .toList();
      for (RequestRecord r : later) {
        assertTrue(r.ok(), r.error());
        PacedServer.StreamRecord s = sent.get(r.id());
        assertTrue(s != null, "the server saw x-request-id " + r.id());
        ItlSeries itl = ItlSeries.ofMillis(r.itlMs());
        assertEquals(s.sent() - 1, itl.size());
        for (int i = 0; i < itl.size(); i++) {
          long serverGapMicros = Math.round((s.sentNanos()[i + 1] - s.sentNanos()[i]) / 1000.0);
          errorMicros[gaps] = Math.abs(itl.micros(i) - serverGapMicros);
          itls[gaps] = itl.millis(i);
          serverGaps[gaps] = serverGapMicros / 1000.0;
          if (itl.micros(i) % 1000 == 0) {
            wholeMs++;
          }
          gaps++;
        }
      }
      Arrays.sort(errorMicros, 0, gaps);
      Arrays.sort(itls, 0, gaps);
      Arrays.sort(serverGaps, 0, gaps);
      double medianItl = itls[gaps / 2];
      double medianServerGap = serverGaps[gaps / 2];
      long medianError = errorMicros[gaps / 2];
      // against the gaps the server kept (it is paced to 7.3 ms, which a busy machine stretches or
      // catches up on), not the pace it was asked for
      assertTrue(
          Math.abs(medianItl - medianServerGap) < 0.1,
          "median ITL " + medianItl + " ms, the server's median send gap " + medianServerGap);
      // seen 45-62 µs on a quiet machine; a whole-ms clock would be off by ~300 µs per gap
      assertTrue(medianError < 500, "median |client gap - server gap| " + medianError + " µs");
      assertTrue(wholeMs < gaps / 4, wholeMs + " of " + gaps + " gaps are whole milliseconds");
      System.out.println(
          "ChunkTimingIT: median ITL "
              + medianItl
              + " ms (the server's median send gap "
              + medianServerGap
              + " ms, asked 7.3), median |client gap - server gap| "
              + medianError
              + " µs, "
              + wholeMs
              + " of "
              + gaps
              + " gaps whole ms");
    }
  }
}
