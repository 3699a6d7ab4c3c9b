package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stream's bytes on the wire, read from a raw socket: status line and headers, then one HTTP
 * chunk per SSE event write ({@code <hex size>\r\n<data>\r\n}), the first content chunk carrying
 * the role event too, the last one the usage and {@code [DONE]} events, then {@code 0\r\n\r\n}; a
 * second request on the same keep-alive connection gets the same framing.
 */
class WireFormatTest {
  static VllmSimulator sim;

  @BeforeAll
  static void start() {
    sim = VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090"));
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  /** Reads one chunked response; returns the chunks' data. */
  static List<String> readResponse(InputStream in) throws Exception {
    String status = line(in);
    assertEquals("HTTP/1.1 200 OK", status);
    List<String> headers = new ArrayList<>();
    for (String h; !(h = line(in)).isEmpty(); ) {
      headers.add(h.toLowerCase());
    }
    assertEquals(
        List.of("content-type: text/event-stream; charset=utf-8", "transfer-encoding: chunked"),
        headers);
    List<String> chunks = new ArrayList<>();
    while (true) {
      String size = line(in);
      assertTrue(size.matches("[0-9a-f]+"), "chunk size line: " + size);
      int n = Integer.parseInt(size, 16);
      if (n == 0) {
        assertEquals("", line(in), "no trailers");
        return chunks;
      }
      byte[] data = in.readNBytes(n);
      assertEquals(n, data.length);
      assertEquals("", line(in), "CRLF after chunk data");
      chunks.add(new String(data, StandardCharsets.UTF_8));
    }
  }

  /** A line ending in CRLF (exactly), without it. */
  static String line(InputStream in) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int prev = -1;
    for (int c; (c = in.read()) >= 0; prev = c) {
      if (prev == '\r' && c == '\n') {
        byte[] x = b.toByteArray();
        return new String(x, 0, x.length - 1, StandardCharsets.US_ASCII);
      }
      assertNotEquals('\n', c, "bare LF");
      b.write(c);
    }
    fail("connection closed");
    return null;
  }

  @Test
  void chunkFramingAndKeepAlive() throws Exception {
    String body =
        "{\"model\":\""
            + sim.servedModelName()
            + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}],"
            + "\"max_tokens\":3,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
    byte[] req =
        ("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length
                + "\r\n\r\n"
                + body)
            .getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket("127.0.0.1", sim.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      for (int round = 0; round < 2; round++) {
        out.write(req);
        out.flush();
        List<String> chunks = readResponse(in);
        assertEquals(3, chunks.size(), chunks.toString());
        String[] first = chunks.get(0).split("\n\n", -1);
        assertEquals(3, first.length, "role event + first token event: " + chunks.get(0));
        assertTrue(
            first[0].startsWith("data: {\"id\":\"chatcmpl-")
                && first[0].contains("\"delta\":{\"role\":\"assistant\",\"content\":\"\"}"),
            first[0]);
        assertTrue(first[1].contains("\"delta\":{\"content\":"), first[1]);
        assertTrue(
            chunks.get(1).startsWith("data: {")
                && chunks.get(1).endsWith("\"finish_reason\":null}]}\n\n"),
            chunks.get(1));
        String[] last = chunks.get(2).split("\n\n", -1);
        assertEquals(4, last.length, chunks.get(2));
        assertTrue(
            last[0].endsWith("\"finish_reason\":\"length\",\"stop_reason\":null}]}"), last[0]);
        assertTrue(last[1].contains("\"choices\":[],\"usage\":{\"prompt_tokens\":"), last[1]);
        assertEquals("data: [DONE]", last[2]);
        assertEquals("", last[3]);
        if (System.getProperty("wire.dump") != null) {
          Files.writeString(
              Path.of(System.getProperty("wire.dump") + round), String.join("\u0001", chunks));
        }
      }
    }
  }
}
