package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.injection.ServerApi;
import io.github.llmbench.testing.PacedServer.StreamRecord;
import io.github.llmbench.workload.RandomDataset;
import io.github.llmbench.workload.ServerTokenizer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The paced server's wire format (byte for byte), its pacing and its recording. */
class PacedServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final double TTFT_MS = 20;
  private static final double ITL_MS = 7.3;
  private static final int CHUNKS = 40;

  static PacedServer server;

  @BeforeAll
  static void start() {
    server = PacedServer.start(PacedServer.Pacing.ofMillis(TTFT_MS, ITL_MS, 64), 0, 1);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** An HTTP/1.1 response read off a raw socket: the head, and the body's chunks as sent. */
  record Response(String head, List<String> chunks) {
    String body() {
      return String.join("", chunks);
    }
  }

  private static Response post(String path, String requestId, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(5_000);
      OutputStream out = s.getOutputStream();
      out.write(
          ("POST "
                  + path
                  + " HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                  + (requestId == null ? "" : "x-request-id: " + requestId + "\r\n")
                  + "content-length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      InputStream in = s.getInputStream();
      String head = readUntil(in, "\r\n\r\n");
      List<String> chunks = new ArrayList<>();
      while (true) {
        String size = readUntil(in, "\r\n");
        int n = Integer.parseInt(size.substring(0, size.length() - 2), 16);
        if (n == 0) {
          assertEquals("\r\n", readUntil(in, "\r\n"), "no trailers after the last chunk");
          return new Response(head, chunks);
        }
        byte[] data = in.readNBytes(n);
        assertEquals(n, data.length);
        chunks.add(new String(data, StandardCharsets.UTF_8));
        assertEquals("\r\n", readUntil(in, "\r\n"), "chunk data ends with CRLF");
      }
    }
  }

  private static String readUntil(InputStream in, String end) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("connection closed after " + b);
      }
      b.write(c);
      String s = b.toString(StandardCharsets.UTF_8);
      if (s.endsWith(end)) {
        return s;
      }
    }
  }

  private static String request(boolean chat, int maxTokens) {
    String input =
        chat
            ? "\"messages\":[{\"role\":\"user\",\"content\":\"one two three four\"}]"
            : "\"prompt\":\"one two three\"";
    return "{\"model\":\""
        + PacedServer.MODEL
        + "\","
        + input
        + ",\"max_tokens\":"
        + maxTokens
        + ",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true}";
  }

  @Test
  void chatStreamIsVllmsLayoutPacedAndRecorded() throws Exception {
    Response r = post("/v1/chat/completions", "req-chat-1", request(true, CHUNKS));

    String head = r.head().toLowerCase(Locale.ROOT);
    assertTrue(head.startsWith("http/1.1 200 ok\r\n"), head);
    assertTrue(head.contains("content-type: text/event-stream; charset=utf-8\r\n"), head);
    assertTrue(head.contains("transfer-encoding: chunked\r\n"), head);
    assertFalse(head.contains("connection: close"), "keep-alive");

    // One HTTP chunk per write: role and content 0 together, then one content chunk each, the
    // last one with usage and [DONE].
    assertEquals(CHUNKS, r.chunks().size());
    JsonNode first =
        JSON.readTree(
            r.chunks().get(0).substring("data: ".length(), r.chunks().get(0).indexOf("\n\n")));
    String id = first.get("id").asText();
    assertTrue(id.matches("chatcmpl-[0-9a-f]{32}"), id);
    String envelope =
        "{\"id\":\""
            + id
            + "\",\"object\":\"chat.completion.chunk\",\"created\":"
            + first.get("created").asLong()
            + ",\"model\":\""
            + PacedServer.MODEL
            + "\",\"choices\":[";
    for (int k = 0; k < CHUNKS; k++) {
      boolean last = k == CHUNKS - 1;
      StringBuilder expected = new StringBuilder();
      if (k == 0) {
        expected
            .append("data: ")
            .append(envelope)
            .append(
                "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
      }
      expected
          .append("data: ")
          .append(envelope)
          .append("{\"index\":0,\"delta\":{\"content\":")
          .append(JSON.writeValueAsString(PacedServer.WORDS[k % 16]))
          .append(
              last
                  ? "},\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}\n\n"
                  : "},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
      if (last) {
        expected
            .append("data: ")
            .append(envelope)
            .append("],\"usage\":{\"prompt_tokens\":4,\"total_tokens\":")
            .append(4 + CHUNKS)
            .append(",\"completion_tokens\":")
            .append(CHUNKS)
            .append("}}\n\n")
            .append("data: [DONE]\n\n");
      }
      assertEquals(expected.toString(), r.chunks().get(k), "HTTP chunk " + k);
    }

    List<StreamRecord> records = server.takeRecords();
    assertEquals(1, records.size());
    StreamRecord rec = records.get(0);
    assertEquals("req-chat-1", rec.id());
    assertEquals(CHUNKS, rec.planned());
    assertEquals(CHUNKS, rec.sent());
    assertFalse(rec.cancelled());
    assertEquals(7_300_000, rec.itlNanos());
    assertEquals(rec.receivedNanos() + 20_000_000, rec.firstDueNanos());
    long[] sent = rec.sentNanos();
    for (int k = 0; k < CHUNKS; k++) {
      assertTrue(sent[k] >= rec.scheduledNanos(k), "chunk " + k + " sent before it was due");
    }
    // due times are absolute (receive + TTFT + k x ITL, the ITL and first due time above): no chunk
    // went before its due time, and how late they went is the machine's (a bound on the mean send
    // gap failed on a busy one)
    assertTrue(sent[0] - rec.receivedNanos() >= 20_000_000, "first content chunk after TTFT");
  }

  @Test
  void completionsStreamCarriesTextAndUnnamedRequestsGetAnId() throws Exception {
    Response r = post("/v1/completions", null, request(false, 3));
    assertEquals(3, r.chunks().size());
    assertFalse(r.body().contains("\"role\""), "completions have no role chunk");
    String[] events = r.body().split("\n\n");
    assertEquals(5, events.length, r.body()); // 3 text chunks, usage, [DONE]
    JsonNode text = JSON.readTree(events[0].substring(6));
    assertEquals("text_completion", text.get("object").asText());
    assertEquals(PacedServer.WORDS[0], text.at("/choices/0/text").asText());
    assertEquals(
        "length", JSON.readTree(events[2].substring(6)).at("/choices/0/finish_reason").asText());
    assertEquals(3, JSON.readTree(events[3].substring(6)).at("/usage/prompt_tokens").asInt());
    assertEquals("data: [DONE]", events[4]);
    List<StreamRecord> records = server.takeRecords();
    assertEquals(1, records.size());
    assertTrue(records.get(0).id().startsWith("paced-"), records.get(0).id());
  }

  /**
   * What the kit checks before sending load: the model list and an exact tokenizer, no fallback.
   */
  @Test
  void answersTheKitsChecks() {
    ServerApi api = new ServerApi(URI.create(server.baseUrl()), Optional.empty());
    assertEquals(List.of(PacedServer.MODEL), api.models());
    ServerTokenizer counter = api.tokenizer(PacedServer.MODEL);
    assertEquals(3, counter.count("three little words").getAsInt());
    RandomDataset.Calibration calibration =
        RandomDataset.Calibration.measure(
            RandomDataset.shippedVocabulary().subList(0, 20), counter);
    assertTrue(calibration.exact(), "prompt lengths calibrated by the server's tokenizer");
  }

  @Test
  void recordsSurviveTheTripThroughAFile(@TempDir Path dir) throws Exception {
    List<StreamRecord> in =
        List.of(
            new StreamRecord("a", 1, 2, 3, 2, new long[] {5, 8}, 1, false),
            new StreamRecord("b", 10, 20, 30, 4, new long[] {25}, 0, true));
    Path file = dir.resolve("streams.bin");
    PacedServer.writeRecords(in, file);
    List<StreamRecord> out = PacedServer.readRecords(file);
    assertEquals(2, out.size());
    assertEquals("b", out.get(1).id());
    assertEquals(25, out.get(1).sentNanos()[0]);
    assertTrue(out.get(1).cancelled());
    assertEquals(8, out.get(0).sentNanos()[1]);
    assertEquals(1, out.get(0).queuedWrites());
    assertTrue(Files.size(file) < 200);
  }
}
