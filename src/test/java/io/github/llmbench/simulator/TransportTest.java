package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every transport available here (io_uring, epoll, NIO) sends the same bytes, and the send lateness
 * of each streamed token is recorded (with io_uring, when its write completes).
 */
class TransportTest {

  static {
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
  }

  @Test
  void availableTransportsSendTheSameBytes() throws Exception {
    assertTrue(Transport.NIO.available());
    String body =
        "{\"model\":\"sim-tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi there\"}],"
            + "\"max_tokens\":7,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
    List<String> seen = new ArrayList<>();
    for (Transport t : Transport.values()) {
      if (!t.available()) {
        continue;
      }
      try (VllmSimulator sim =
          VllmSimulator.start(
              SimulatorConfig.defaults()
                  .withModel("sim-tiny")
                  .withGpu("rtx4090")
                  .withServedModelName("sim-tiny"),
              t)) {
        assertEquals(t.toString(), sim.transport());
        for (int i = 0; i < 2; i++) { // two requests on one keep-alive connection, twice
          String wire = exchange(sim.port(), body);
          assertTrue(wire.endsWith("data: [DONE]\n\n\r\n0\r\n\r\n"), wire);
          // ids, timestamps and output words (so chunk sizes) differ from response to response;
          // everything else must not
          seen.add(
              t
                  + ": "
                  + wire.replaceAll("chatcmpl-[0-9a-f]{32}", "ID")
                      .replaceAll("\"created\":\\d+", "\"created\":T")
                      .replaceAll("\"content\":\"(?:[^\"\\\\]|\\\\.)+\"", "\"content\":W")
                      .replaceAll("(?<=\n)[0-9a-f]+\r\n", "N\r\n"));
        }
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (sim.lateness().count() < 4 * 7 && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertEquals(4 * 7, sim.lateness().count(), t + ": every token's lateness recorded");
      }
    }
    String first = seen.get(0).substring(seen.get(0).indexOf(':'));
    for (String s : seen) {
      assertEquals(first, s.substring(s.indexOf(':')), s.substring(0, s.indexOf(':')));
    }
    assertTrue(first.contains("\"content\":W"), first);
  }

  /** Two pipelined-free requests on one connection; returns both raw responses. */
  private static String exchange(int port, String body) throws Exception {
    byte[] json = body.getBytes(StandardCharsets.UTF_8);
    byte[] req =
        ("POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                + "content-length: "
                + json.length
                + "\r\n\r\n"
                + body)
            .getBytes(StandardCharsets.UTF_8);
    StringBuilder all = new StringBuilder();
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      for (int r = 0; r < 2; r++) {
        out.write(req);
        out.flush();
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        while (!got.toString(StandardCharsets.UTF_8).endsWith("\r\n0\r\n\r\n")) {
          int b = in.read();
          assertNotEquals(-1, b, "connection closed early");
          got.write(b);
        }
        all.append(got.toString(StandardCharsets.UTF_8));
      }
    }
    return all.toString();
  }
}
