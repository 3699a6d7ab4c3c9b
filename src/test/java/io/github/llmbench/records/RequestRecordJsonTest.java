package io.github.llmbench.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.core.Level;
import io.github.llmbench.testing.TestRecords;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON line of a record: 3 decimals at most when written, read back equal. */
class RequestRecordJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static String write(RequestRecord r) throws Exception {
    return JSON.writeValueAsString(r);
  }

  @Test
  void latenciesAreWrittenWithAtMostThreeDecimals() throws Exception {
    RequestRecord r =
        TestRecords.ok("c64")
            .id("req-17")
            .start(1_700_000_000_000L)
            .end(1_700_000_001_300L)
            .ttft(20.1234567)
            .tpot(0.1 + 0.2)
            .e2el(1290.5)
            .itl(10.003, 9.998, 10.0, 10.03, 0.001, -0.5, 123456.789)
            .inputTokens(1024)
            .outputTokens(8)
            .estimated(false)
            .error(null)
            .status(200)
            .profile(null)
            .build();
    assertEquals(
        "{\"id\":\"req-17\",\"level\":\"c64\",\"start_ms\":1700000000000,"
            + "\"end_ms\":1700000001300,\"ttft_ms\":20.123,\"tpot_ms\":0.3,\"e2el_ms\":1290.5,"
            + "\"itl_ms\":[10.003,9.998,10.0,10.03,0.001,-0.5,123456.789],\"input_tokens\":1024,"
            + "\"output_tokens\":8,\"output_tokens_estimated\":false,\"ok\":true,\"error\":null,"
            + "\"http_status\":200,\"profile\":null}",
        write(r));
    // the record itself holds the rounded values, so a live run reports what the file says
    assertEquals(20.123, r.ttftMs());
    assertEquals(0.3, r.tpotMs());
  }

  /**
   * Lines of every kind of record, as the writer wrote them (the first five from real runs): chat,
   * pooling, trials, multi-turn, profiles, chunk and tokenizer counts, reasoning (with and without
   * an answer), failures, a timeout, a cancel, a failed pooling request, routes, llama.cpp's
   * timings, a trace with an injector, a client queue.
   */
  @Test
  void aLineOfEveryKindIsWrittenBackByteForByte() throws Exception {
    List<String> lines;
    try (var in = getClass().getResourceAsStream("requests-every-kind.jsonl")) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    assertEquals(22, lines.size());
    for (String line : lines) {
      assertEquals(line, write(JSON.readValue(line, RequestRecord.class)));
    }
  }

  @Test
  void failedRecordWritesNullsAndNoServerTimings() throws Exception {
    RequestRecord f =
        RequestRecord.builder()
            .id("x")
            .level("c2")
            .profile("SS")
            .startMs(5)
            .endMs(5)
            .error("HTTP 503")
            .httpStatus(503)
            .build();
    assertEquals(
        "{\"id\":\"x\",\"level\":\"c2\",\"start_ms\":5,\"end_ms\":5,\"ttft_ms\":null,"
            + "\"tpot_ms\":null,\"e2el_ms\":null,\"itl_ms\":[],\"input_tokens\":null,"
            + "\"output_tokens\":null,\"output_tokens_estimated\":false,\"ok\":false,"
            + "\"error\":\"HTTP 503\",\"http_status\":503,\"profile\":\"SS\"}",
        write(f));
  }

  @Test
  void anAgentSessionsCallIsWrittenWithItsParentsAndReadBack() throws Exception {
    RequestRecord tool =
        RequestRecord.builder()
            .id("s")
            .level("c2")
            .startMs(5)
            .endMs(9)
            .error("HTTP 400")
            .httpStatus(400)
            .origin(
                RequestOrigin.inTrial(
                    RequestOrigin.sessionPlace(
                        new RequestOrigin.SessionPlace(
                            "research#3", "merge", 3, List.of("q1", "q2"), 2)),
                    1))
            .build();
    String line = write(tool);
    assertTrue(
        line.endsWith(
            "\"profile\":null,\"session\":\"research#3\",\"call\":\"merge\",\"step\":3,"
                + "\"parents\":[\"q1\",\"q2\"],\"round\":2,\"trial\":1}"),
        line);
    assertEquals(tool, JSON.readValue(line, RequestRecord.class));
    RequestRecord root =
        tool.toBuilder()
            .origin(
                RequestOrigin.sessionPlace(
                    new RequestOrigin.SessionPlace("research#3", "split", 1, List.of(), 0)))
            .build();
    line = write(root);
    assertTrue(
        line.endsWith("\"session\":\"research#3\",\"call\":\"split\",\"step\":1,\"parents\":[]}"),
        line);
    assertEquals(root, JSON.readValue(line, RequestRecord.class));
    String bad = line.replace("\"parents\":[]", "\"parents\":[1]");
    Exception e = assertThrows(Exception.class, () -> JSON.readValue(bad, RequestRecord.class));
    assertTrue(
        String.valueOf(e.getMessage()).contains("field 'parents' must be an array of strings"),
        String.valueOf(e.getMessage()));
  }

  @Test
  void aConversationTurnAndATraceTimeAreWrittenOnlyWhereTheyAreAndReadBack() throws Exception {
    RequestRecord turn =
        RequestRecord.builder()
            .id("x")
            .level("c2")
            .startMs(5)
            .endMs(9)
            .error("HTTP 400")
            .httpStatus(400)
            .origin(RequestOrigin.turn("conv-3", 2))
            .build();
    String line = write(turn);
    assertTrue(line.endsWith("\"profile\":null,\"conversation\":\"conv-3\",\"turn\":2}"), line);
    assertEquals(turn, JSON.readValue(line, RequestRecord.class));
    RequestRecord traced =
        RequestRecord.builder()
            .id("y")
            .level("trace")
            .startMs(5)
            .endMs(9)
            .error("HTTP 400")
            .httpStatus(400)
            .origin(RequestOrigin.trace(1_250_500, 1_234))
            .build();
    line = write(traced);
    assertTrue(line.endsWith("\"profile\":null,\"trace_ms\":1250.5,\"sent_ms\":1.234}"), line);
    assertEquals(traced, JSON.readValue(line, RequestRecord.class));
    assertEquals(1250.5, JSON.readValue(line, RequestRecord.class).origin().traceMs());
    RequestRecord trial =
        RequestRecord.builder()
            .id("t")
            .level("c4")
            .startMs(5)
            .endMs(9)
            .error("HTTP 500")
            .httpStatus(500)
            .origin(RequestOrigin.inTrial(RequestOrigin.turn("conv-1", 1), 3))
            .build();
    line = write(trial);
    assertTrue(
        line.endsWith("\"profile\":null,\"conversation\":\"conv-1\",\"turn\":1,\"trial\":3}"),
        line);
    assertEquals(trial, JSON.readValue(line, RequestRecord.class));
    assertEquals(3, RequestOrigin.trialOf(JSON.readValue(line, RequestRecord.class).origin()));
    RequestRecord paired =
        RequestRecord.builder()
            .id("p")
            .level("c4")
            .startMs(5)
            .endMs(9)
            .error("HTTP 500")
            .httpStatus(500)
            .origin(RequestOrigin.inPair(null, 2, RequestOrigin.Side.B))
            .build();
    line = write(paired);
    assertTrue(line.endsWith("\"profile\":null,\"pair\":2,\"side\":\"B\"}"), line);
    assertEquals(paired, JSON.readValue(line, RequestRecord.class));
    assertEquals(
        RequestOrigin.Side.B,
        RequestOrigin.sideOf(JSON.readValue(line, RequestRecord.class).origin()));
    RequestRecord queued =
        RequestRecord.builder()
            .id("q")
            .level("r40")
            .startMs(5)
            .endMs(9)
            .error("HTTP 500")
            .httpStatus(500)
            .origin(RequestOrigin.queued(null, 1_234_567))
            .build();
    line = write(queued);
    assertTrue(line.endsWith("\"profile\":null,\"client_queue_ms\":1234.567}"), line);
    assertEquals(queued, JSON.readValue(line, RequestRecord.class));
    assertEquals(1234.567, JSON.readValue(line, RequestRecord.class).origin().clientQueueMs());
    RequestRecord thought =
        RequestRecord.builder()
            .id("p")
            .level("c1")
            .startMs(5)
            .endMs(9)
            .error("HTTP 500")
            .httpStatus(500)
            .reasoning(new Reasoning(412_500, 31, Reasoning.USAGE))
            .build();
    line = write(thought);
    assertTrue(
        line.endsWith(
            "\"profile\":null,\"ttfo_ms\":412.5,\"reasoning_tokens\":31,"
                + "\"reasoning_tokens_from\":\"usage\"}"),
        line);
    assertEquals(thought, JSON.readValue(line, RequestRecord.class));
    RequestRecord unanswered =
        thought.toBuilder()
            .reasoning(new Reasoning(RequestRecord.ABSENT, 7, Reasoning.CHUNKS))
            .build();
    assertEquals(unanswered, JSON.readValue(write(unanswered), RequestRecord.class));
    assertNull(
        JSON.readValue(
                write(
                    RequestRecord.builder()
                        .id("z")
                        .level("c1")
                        .startMs(1)
                        .endMs(2)
                        .error("e")
                        .build()),
                RequestRecord.class)
            .origin());
  }

  @Test
  void aRecordOfARunOverSeveralServersOrModelsNamesItsOwnAndReadsBack() throws Exception {
    RequestRecord routed =
        RequestRecord.builder()
            .id("r")
            .level("c2")
            .startMs(5)
            .endMs(9)
            .error("HTTP 500")
            .httpStatus(500)
            .route(Route.of("http://127.0.0.1:8001", "sql"))
            .build();
    String line = write(routed);
    assertTrue(line.endsWith("\"endpoint\":\"http://127.0.0.1:8001\",\"model\":\"sql\"}"), line);
    RequestRecord back = JSON.readValue(line, RequestRecord.class);
    assertEquals(routed, back);
    assertSame(routed.route(), back.route(), "one instance per route");
    RequestRecord modelOnly = routed.toBuilder().route(Route.of(null, "a")).build();
    assertTrue(write(modelOnly).endsWith("\"profile\":null,\"model\":\"a\"}"));
    assertNull(Route.of(null, null));
    assertNull(
        JSON.readValue(write(routed.toBuilder().route(null).build()), RequestRecord.class).route());
  }

  @Test
  void aLevelIsReadAsTheLevelItsTagNamesAndASimulationsOwnNameIsKept() throws Exception {
    for (Level level : List.of(Level.closed(64), Level.open(2.5), Level.TRACE, Level.WARMUP)) {
      RequestRecord r =
          JSON.readValue(
              write(
                  RequestRecord.builder()
                      .id("x")
                      .level(level.tag())
                      .startMs(1)
                      .endMs(2)
                      .error("e")
                      .build()),
              RequestRecord.class);
      assertEquals(level.tag(), r.level());
      assertEquals(Optional.of(level), r.loadLevel());
      assertEquals(
          Optional.of(level), r.toBuilder().profile("SS").build().loadLevel(), "a copy keeps it");
    }
    // a custom simulation's group (or an older file's name): no level of the kit's, written back as
    // read
    String line =
        write(
            RequestRecord.builder()
                .id("x")
                .level("checkout step")
                .startMs(1)
                .endMs(2)
                .error("e")
                .build());
    RequestRecord custom = JSON.readValue(line, RequestRecord.class);
    assertEquals("checkout step", custom.level());
    assertEquals(Optional.empty(), custom.loadLevel());
    assertEquals(line, write(custom));
    assertEquals(
        Optional.empty(),
        RequestRecord.builder().id("y").startMs(1).endMs(2).error("e").build().loadLevel());
    // parsed once per tag: the records of a level share it
    RequestRecord a =
        RequestRecord.builder().id("a").level("c48").startMs(1).endMs(2).error("e").build();
    RequestRecord b =
        JSON.readValue(
            write(
                RequestRecord.builder()
                    .id("b")
                    .level("c48")
                    .startMs(1)
                    .endMs(2)
                    .error("e")
                    .build()),
            RequestRecord.class);
    assertSame(a.loadLevel().orElseThrow(), b.loadLevel().orElseThrow());
  }

  @Test
  void millisTextIsTheDecimalOfTheMicroseconds() {
    assertEquals("0.0", RequestRecordJson.millisText(0));
    assertEquals("0.001", RequestRecordJson.millisText(1));
    assertEquals("0.01", RequestRecordJson.millisText(10));
    assertEquals("10.0", RequestRecordJson.millisText(10_000));
    assertEquals("10.3", RequestRecordJson.millisText(10_300));
    assertEquals("-0.5", RequestRecordJson.millisText(-500));
    assertEquals("-12.345", RequestRecordJson.millisText(-12_345));
    assertEquals("4503599627370.496", RequestRecordJson.millisText(ItlSeries.MAX_ABS_MICROS));
    Random rnd = new Random(3);
    for (int i = 0; i < 10_000; i++) {
      long us = rnd.nextLong() % (1L << 40);
      String text = RequestRecordJson.millisText(us);
      assertEquals(us / 1000.0, Double.parseDouble(text), 0.0, text);
      // 1 to 3 decimals, no trailing zero except the one of a whole number
      assertTrue(text.matches("-?\\d+\\.(0|\\d{0,2}[1-9])"), text);
    }
  }

  @Test
  void simpleNumbersAreParsedWithoutDoubles() {
    assertEquals(10_003, parse("10.003"));
    assertEquals(10_000, parse("10"));
    assertEquals(10_300, parse("10.3"));
    assertEquals(-500, parse("-0.5"));
    assertEquals(0, parse("-0.0"));
    for (String notSimple : new String[] {"1e3", "10.0005", "1.5E-3", "1234567890123456.0", "-"}) {
      assertEquals(Long.MIN_VALUE + 1, parse(notSimple), notSimple);
    }
  }

  private static long parse(String s) {
    char[] padded = ("xx" + s + "yy").toCharArray();
    return JsonIn.parseMillis(padded, 2, s.length());
  }

  @Test
  void randomRecordsRoundTripThroughTheFile(@TempDir Path dir) throws Exception {
    Random rnd = new Random(11);
    RunRecorder recorder = new RunRecorder(() -> dir);
    List<RequestRecord> written = new ArrayList<>();
    String[] ids = {"req-", "req-0", "req-007", "", "abc", "1234567890123456789", "r-"};
    for (int i = 0; i < 500; i++) {
      int chunks = rnd.nextInt(40);
      List<Double> itl = new ArrayList<>();
      for (int k = 0; k < chunks; k++) {
        itl.add(rnd.nextDouble() < 0.95 ? 10 + rnd.nextGaussian() : rnd.nextDouble() * 1e7);
      }
      boolean ok = rnd.nextInt(10) > 0;
      String id = i < ids.length ? ids[i] : "req-" + i;
      RequestRecord r =
          ok
              // the random draws in the order the constructor's arguments took them
              ? TestRecords.ok("c" + (1 << rnd.nextInt(8)))
                  .id(id)
                  .start(1_700_000_000_000L + i)
                  .end(1_700_000_000_000L + i + rnd.nextInt(5000))
                  .ttft(rnd.nextDouble() * 1000)
                  .tpot(chunks > 0 ? rnd.nextDouble() * 50 : null)
                  .e2el(rnd.nextDouble() * 5000)
                  .itl(itl)
                  .inputTokens(rnd.nextBoolean() ? null : rnd.nextInt(5000))
                  .outputTokens(chunks + 1)
                  .estimated(rnd.nextBoolean())
                  .status(200)
                  .profile(rnd.nextBoolean() ? null : "LS")
                  .serverTimings(
                      rnd.nextInt(5) == 0 ? new ServerTimings(59, 45.791, 3, 4.394, 2.197) : null)
                  .build()
              : RequestRecord.builder()
                  .id(id)
                  .level("c8")
                  .startMs(1_700_000_000_000L)
                  .endMs(1_700_000_000_500L)
                  .error("timeout: no [DONE] within 600 s")
                  .inputTokens(12)
                  .build();
      recorder.finished(r);
      written.add(r);
    }
    recorder.close(0, "x");
    List<RequestRecord> read = RequestsJsonl.read(dir.resolve(RunFiles.REQUESTS));
    assertEquals(written, read);
    for (int i = 0; i < ids.length; i++) {
      assertEquals(ids[i], read.get(i).id());
    }
    // any ObjectMapper reads a line back too
    String line = Files.readAllLines(dir.resolve(RunFiles.REQUESTS)).get(42);
    assertEquals(written.get(42), JSON.readValue(line, RequestRecord.class));
  }

  @Test
  void olderLinesWithMoreDecimalsAreRoundedAsTheConstructorRounds() {
    String line =
        "{\"start_ms\":1,\"end_ms\":2,\"ok\":true,\"ttft_ms\":400,"
            + "\"tpot_ms\":80.33333333333333,\"e2el_ms\":1.9e3,\"itl_ms\":[1e1,10.0005,600]}";
    RequestRecord r = RequestsJsonl.parseLine(line, "old", 1);
    assertEquals(
        TestRecords.ok(null)
            .id(null)
            .start(1)
            .end(2)
            .ttft(400.0)
            .tpot(80.33333333333333)
            .e2el(1900.0)
            .itl(10.0, 10.0005, 600.0)
            .inputTokens(null)
            .outputTokens(null)
            .status(null)
            .build(),
        r);
    assertEquals(80.333, r.tpotMs());
    assertEquals(List.of(10.0, Math.round(10.0005 * 1000) / 1000.0, 600.0), r.itlMs());
  }

  @Test
  void bomCrLfBlankLinesAndUnknownFields(@TempDir Path dir) throws Exception {
    String a =
        "{\"id\":\"a\",\"start_ms\":1,\"end_ms\":2,\"ok\":true,\"x\":{\"y\":[1,{\"z\":null}]},"
            + "\"itl_ms\":null,\"level\":\"c64\",\"error\":\"boom\"}";
    String b =
        "{\"id\":\"b\",\"future\":[[]],\"start_ms\":3,\"end_ms\":4,\"ok\":false,"
            + "\"level\":\"c64\",\"error\":\"boom\"}";
    Path file = dir.resolve("r.jsonl");
    Files.write(
        file, ("\uFEFF" + a + "\r\n\r\n   \n" + b + "\r\n").getBytes(StandardCharsets.UTF_8));
    List<RequestRecord> rs = RequestsJsonl.read(file);
    assertEquals(2, rs.size());
    assertEquals(List.of(), rs.get(0).itlMs());
    assertNull(rs.get(0).ttftMs());
    assertEquals("b", rs.get(1).id());
    // repeated texts are shared
    assertSame(rs.get(0).level(), rs.get(1).level());
    assertSame(rs.get(0).error(), rs.get(1).error());
    // the same through a Reader, whose BOM is a character
    assertEquals(rs, RequestsJsonl.read(new StringReader("\uFEFF" + a + "\n" + b), "mem"));
  }

  @Test
  void malformedLinesAreNamed() {
    String ok = "{\"start_ms\":1,\"end_ms\":2,\"ok\":true}";
    assertMalformed(ok + "\n" + ok + " " + ok + "\n", "line 2", "more than one JSON value");
    assertMalformed(
        ok + "\n{\"start_ms\":1,\n\"end_ms\":2,\"ok\":true}\n",
        "line 2",
        "does not end on its line");
    assertMalformed(
        ok + "\n\n{\"start_ms\":1,\"end_ms\":2,\"ok\":true,\"itl_ms\":[1.0,null]}",
        "line 3",
        "itl_ms[1] is null");
    assertMalformed(
        ok + "\n{\"start_ms\":1,\"end_ms\":2,\"ok\":true,\"ttft_ms\":\"fast\"}",
        "line 2",
        "ttft_ms");
    assertMalformed(ok + "\n{\"start_ms\":1.5,\"end_ms\":2,\"ok\":true}", "line 2", "start_ms");
    assertMalformed(ok + "\n{\"start_ms\":1,\"end_ms\":2,\"ok\":null}", "line 2", "'ok'");
    assertMalformed(
        ok + "\n{\"start_ms\":1,\"end_ms\":2,\"ok\":true,\"itl_ms\":{}}", "line 2", "itl_ms");
    assertMalformed(
        ok + "\n{\"start_ms\":1,\"end_ms\":2,\"ok\":true,\"ttft_ms\":1e300}", "line 2", "ttft_ms");
    assertMalformed(ok + "\n\"text\"\n", "line 2", "not a JSON object");
    assertMalformed(ok + "\n" + ok + "}\n", "line 2", "");
  }

  private static void assertMalformed(String content, String where, String why) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RequestsJsonl.read(new StringReader(content), "mem.jsonl"));
    assertTrue(
        e.getMessage().startsWith("malformed record in mem.jsonl at " + where + ":"),
        e.getMessage());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }
}
