package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The chunk-arrival sums against a plain per-chunk walk over the same records. */
class TokenArrivalsTest {

  private static final long T = 1_700_000_000_000L;

  /** Each chunk's arrival in epoch µs, and its weight, the simple way. */
  private static Map<Long, Double> naivePerSecond(
      List<RequestRecord> rs, long origin, boolean okOnly) {
    Map<Long, Double> out = new TreeMap<>();
    for (RequestRecord r : rs) {
      if ((okOnly && !r.ok()) || r.ttftMs() == null) {
        continue;
      }
      double w = TokenArrivals.chunkWeight(r);
      long t = (r.startMs() - origin) * 1000 + Math.round(r.ttftMs() * 1000);
      out.merge(Math.floorDiv(t, 1_000_000L), w, Double::sum);
      for (int i = 0; i < r.itlMs().size(); i++) {
        t += r.itlMs().micros(i);
        out.merge(Math.floorDiv(t, 1_000_000L), w, Double::sum);
      }
    }
    return out;
  }

  private static double naiveBetween(List<RequestRecord> rs, long fromMs, long toMs) {
    double sum = 0;
    for (RequestRecord r : rs) {
      if (!r.ok() || r.ttftMs() == null) {
        continue;
      }
      long t = r.startMs() * 1000 + Math.round(r.ttftMs() * 1000);
      List<Long> arrivals = new ArrayList<>(List.of(t));
      for (int i = 0; i < r.itlMs().size(); i++) {
        t += r.itlMs().micros(i);
        arrivals.add(t);
      }
      for (long a : arrivals) {
        if (a >= fromMs * 1000 && a <= toMs * 1000) {
          sum += TokenArrivals.chunkWeight(r);
        }
      }
    }
    return sum;
  }

  private static List<RequestRecord> randomRun(Random rnd, int n) {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long start = T + rnd.nextInt(20_000);
      List<Double> itl = new ArrayList<>();
      for (int k = rnd.nextInt(30); k > 0; k--) {
        // whole-ms gaps land chunks exactly on bucket and window boundaries; some are negative
        itl.add(rnd.nextBoolean() ? rnd.nextInt(400) : rnd.nextInt(400_000) / 1000.0 - 20);
      }
      double ttft =
          rnd.nextInt(5) == 0 ? 1000.0 - (start - T) % 1000 : rnd.nextInt(900_000) / 1000.0;
      boolean ok = rnd.nextInt(8) != 0;
      Integer out = rnd.nextInt(3) == 0 ? null : 1 + rnd.nextInt(60);
      rs.add(
          TestRecords.ok("c4")
              .start(start)
              .end(start + 10_000)
              .ttft(ok || rnd.nextBoolean() ? ttft : null)
              .tpot(null)
              .e2el(null)
              .itl(itl)
              .outputTokens(out)
              .ok(ok)
              .build());
    }
    // one request whose clock is far off: its buckets are beyond the dense array
    rs.add(
        TestRecords.ok("c4")
            .id("far")
            .start(T + 400L * 86_400_000L)
            .ttft(1)
            .itl(1, 1)
            .e2el(3)
            .outputTokens(3)
            .build());
    return rs;
  }

  @Test
  void perSecondMatchesAWalkOverEveryChunk() {
    Random rnd = new Random(9);
    for (int round = 0; round < 20; round++) {
      List<RequestRecord> rs = randomRun(rnd, 200);
      for (boolean okOnly : new boolean[] {true, false}) {
        Map<Long, Double> expected = naivePerSecond(rs, T, okOnly);
        TokenArrivals.SecondBuckets actual = TokenArrivals.perSecond(rs, T, okOnly);
        assertEquals(((TreeMap<Long, Double>) expected).firstKey(), actual.first());
        assertEquals(((TreeMap<Long, Double>) expected).lastKey(), actual.last());
        double max = 0;
        for (Map.Entry<Long, Double> e : expected.entrySet()) {
          assertEquals(e.getValue(), actual.get(e.getKey()), 1e-9, "bucket " + e.getKey());
          if (e.getKey() >= 0) {
            max = Math.max(max, e.getValue());
          }
        }
        assertEquals(0.0, actual.get(((TreeMap<Long, Double>) expected).lastKey() - 1), 0.0);
        assertEquals(max, actual.maxFromZero(), 1e-9);
      }
    }
  }

  @Test
  void betweenMatchesAWalkOverEveryChunkWithBoundsIncluded() {
    Random rnd = new Random(10);
    for (int round = 0; round < 20; round++) {
      List<RequestRecord> rs = randomRun(rnd, 200);
      // window ends on chunks that arrive on a whole ms: both ends must count
      List<Long> wholeMs = new ArrayList<>();
      for (RequestRecord r : rs.subList(0, rs.size() - 1)) {
        if (r.ok() && r.ttftMs() != null) {
          long t = r.startMs() * 1000 + r.ttftMicros();
          for (int i = 0; i <= r.itlMs().size(); i++) {
            if (t % 1000 == 0) {
              wholeMs.add(t / 1000);
            }
            t += i < r.itlMs().size() ? r.itlMs().micros(i) : 0;
          }
        }
      }
      wholeMs.sort(null);
      long from = wholeMs.get(rnd.nextInt(wholeMs.size() / 2));
      long to = wholeMs.get(wholeMs.size() / 2 + rnd.nextInt(wholeMs.size() / 2));
      double expected = naiveBetween(rs, from, to);
      assertEquals(expected, TokenArrivals.between(rs, from, to), 1e-9);
      assertEquals(expected, TokenArrivals.between(rs, from - 0.0001, to + 0.0001), 1e-9);
      // a µs inside on each side leaves out the chunks on the ends
      assertTrue(TokenArrivals.between(rs, from + 0.001, to - 0.001) < expected - 1e-9);
    }
  }
}
