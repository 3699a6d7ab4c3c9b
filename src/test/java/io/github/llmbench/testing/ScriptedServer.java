package io.github.llmbench.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny OpenAI-compatible server on loopback whose streaming answers follow a script, one
 * {@link Behaviour} per request in turn: the misbehaviours the kit must turn into failures. Raw
 * sockets, so a stream can be cut the way a crashed server cuts it (no terminating chunk).
 */
public final class ScriptedServer implements AutoCloseable {

  public enum Behaviour {
    OK,
    HTTP_500,
    ERROR_EVENT,
    CUT_MID_STREAM,
    END_WITHOUT_DONE,
    INVALID_JSON,
    STALL,
    /** reads the request and never answers, not even the status line */
    SILENT,
    /** a good stream without a usage chunk (servers and proxies that send none) */
    OK_NO_USAGE
  }

  public static final String MODEL = "scripted-model";
  private static final int TOKENS = 5;

  private final ServerSocket socket;
  private final List<Behaviour> script;
  private final AtomicInteger next = new AtomicInteger();
  private final List<String> completionBodies = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<java.util.Map<String, String>> completionHeaders = new CopyOnWriteArrayList<>();
  private final List<Long> cutAtMs = new CopyOnWriteArrayList<>();
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();

  /**
   * One completion request and the text streamed back (of an {@link Behaviour#OK} answer: {@code
   * " r<n>w0 r<n>w1 ..."}, n the request's number, so every answer differs).
   */
  public record Exchange(java.util.Map<String, String> headers, String body, String answer) {}
  private final Thread acceptor;
  private volatile boolean closed;

  public ScriptedServer(List<Behaviour> script) throws IOException {
    this.script = List.copyOf(script);
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::acceptLoop, "scripted-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  /** The Authorization headers of the completion requests received ("" when absent). */
  public List<String> authorizations() {
    return authorizations;
  }

  /** The headers of the completion requests received (names in lower case), in arrival order. */
  public List<java.util.Map<String, String>> completionHeaders() {
    return completionHeaders;
  }

  /** When each cut stream was cut (epoch ms, just after the socket was closed). */
  public List<Long> cutAtMs() {
    return cutAtMs;
  }

  /** The completion requests received with what was answered, in arrival order. */
  public List<Exchange> exchanges() {
    return exchanges;
  }

  /** Bodies of the completion requests received, in arrival order (resends show up here). */
  public List<String> completionBodies() {
    return completionBodies;
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket s = socket.accept();
        Thread t = new Thread(() -> serve(s), "scripted-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = new BufferedInputStream(s.getInputStream());
      String head = readHead(in);
      if (head == null) {
        return;
      }
      String requestLine = head.substring(0, head.indexOf("\r\n"));
      int length = 0;
      String authorization = "";
      java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).trim());
        }
        if (line.toLowerCase(Locale.ROOT).startsWith("authorization:")) {
          authorization = line.substring(14).trim();
        }
      }
      byte[] body = in.readNBytes(length);
      OutputStream out = s.getOutputStream();
      if (requestLine.startsWith("GET /v1/models")) {
        respond(out, 200, "application/json", "{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL + "\",\"object\":\"model\"}]}");
      } else if (requestLine.startsWith("POST /tokenize")) {
        respond(out, 404, "application/json", "{\"detail\":\"Not Found\"}");
      } else if (requestLine.startsWith("POST /v1/chat/completions")) {
        completionBodies.add(new String(body, StandardCharsets.UTF_8));
        authorizations.add(authorization);
        completionHeaders.add(headers);
        int n = next.getAndIncrement();
        StringBuilder answer = new StringBuilder();
        for (int i = 0; i < TOKENS; i++) {
          answer.append(" r").append(n).append('w').append(i);
        }
        exchanges.add(new Exchange(headers, new String(body, StandardCharsets.UTF_8), answer.toString()));
        stream(s, out, script.get(Math.floorMod(n, script.size())), n);
      } else {
        respond(out, 404, "application/json", "{}");
      }
    } catch (IOException | InterruptedException e) {
      // the client went away: nothing to do
    }
  }

  private void stream(Socket socket, OutputStream out, Behaviour b, int n) throws IOException, InterruptedException {
    if (b == Behaviour.SILENT) {
      Thread.sleep(8_000);
      return;
    }
    if (b == Behaviour.HTTP_500) {
      respond(out, 500, "application/json", "{\"error\":{\"message\":\"boom\",\"type\":\"InternalServerError\",\"code\":500}}");
      return;
    }
    out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    event(out, chunk("{\"role\":\"assistant\",\"content\":\"\"}", null));
    for (int i = 0; i < TOKENS; i++) {
      Thread.sleep(20);
      if (b == Behaviour.ERROR_EVENT && i == 2) {
        event(out, "{\"error\":{\"message\":\"engine <script>alert(1)</script> died\",\"type\":\"InternalServerError\",\"code\":500}}");
        endChunked(out);
        return;
      }
      if (b == Behaviour.CUT_MID_STREAM && i == 2) {
        // half an event, then the socket closed without the terminating chunk
        byte[] half = "data: {\"choices\":[{\"delta\"".getBytes(StandardCharsets.US_ASCII);
        out.write((Integer.toHexString(half.length + 10) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(half);
        out.flush();
        socket.close();
        cutAtMs.add(System.currentTimeMillis());
        return;
      }
      if (b == Behaviour.INVALID_JSON && i == 2) {
        event(out, "{\"choices\":[{\"delta\":{\"content\":\"tr");
        continue;
      }
      if (b == Behaviour.STALL && i == 2) {
        Thread.sleep(8_000);
        return;
      }
      event(out, chunk("{\"content\":\" r" + n + "w" + i + "\"}", i == TOKENS - 1 ? "\"length\"" : null));
    }
    if (b != Behaviour.OK_NO_USAGE) {
      event(out, "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + MODEL
          + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"total_tokens\":" + (7 + TOKENS) + ",\"completion_tokens\":" + TOKENS + "}}");
    }
    if (b != Behaviour.END_WITHOUT_DONE) {
      event(out, "[DONE]");
    }
    endChunked(out);
  }

  private static String chunk(String delta, String finish) {
    return "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + MODEL
        + "\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":" + finish + "}]}";
  }

  private static void event(OutputStream out, String data) throws IOException {
    byte[] bytes = ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
    out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static void endChunked(OutputStream out) throws IOException {
    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static void respond(OutputStream out, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: " + type + "\r\nContent-Length: " + bytes.length
                + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int c;
    while ((c = in.read()) >= 0) {
      head.write(c);
      matched = (c == '\r' || c == '\n') ? matched + 1 : 0;
      if (matched == 4) {
        return head.toString(StandardCharsets.US_ASCII);
      }
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    socket.close();
  }
}
