package io.github.llmbench.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tiny OpenAI-compatible server on loopback whose streaming answers follow a script, one {@link
 * Behaviour} per request in turn: the misbehaviours the kit must turn into failures. Raw sockets,
 * so a stream can be cut the way a crashed server cuts it (no terminating chunk).
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
    OK_NO_USAGE,
    /** reads the request, then resets the connection (RST) before any response */
    RESET_BEFORE_HEADERS,
    /** reads the request, then closes the connection (FIN) before any response */
    CLOSE_BEFORE_HEADERS,
    /** a stream whose second HTTP chunk has the size line {@code zz} */
    MALFORMED_CHUNK,
    /** a 200 answer in JSON, not an event stream (a server that ignored {@code stream: true}) */
    JSON_ANSWER,
    /** an event whose text is not valid UTF-8 */
    INVALID_UTF8
  }

  public static final String MODEL = "scripted-model";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int TOKENS = 5;

  private final ServerSocket socket;
  private final List<Behaviour> script;
  private final AtomicInteger next = new AtomicInteger();
  private final List<String> completionBodies = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<Map<String, String>> completionHeaders = new CopyOnWriteArrayList<>();
  private final List<Long> cutAtMs = new CopyOnWriteArrayList<>();
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
  private final Map<String, Behaviour> behaviourById = new ConcurrentHashMap<>();
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final Map<String, Integer> answers = new ConcurrentHashMap<>();
  private volatile long notReadyMs;
  private volatile int notReadyPolls;
  private final AtomicInteger healthAsked = new AtomicInteger();
  private final AtomicLong firstRequestMs = new AtomicLong();

  /**
   * One completion request and the text streamed back (of an {@link Behaviour#OK} answer: {@code "
   * r<n>w0 r<n>w1 ..."}, n the request's number, so every answer differs).
   */
  public record Exchange(Map<String, String> headers, String body, String answer) {}

  private final Thread acceptor;
  private final boolean keepAlive;
  private final AtomicInteger connections = new AtomicInteger();
  private volatile boolean closed;

  /** Answers one request per connection ({@code Connection: close}). */
  public ScriptedServer(List<Behaviour> script) throws IOException {
    this(script, false);
  }

  /**
   * @param keepAlive whether connections stay open for the next request after an answer that ends
   *     cleanly (as uvicorn, vLLM's server, keeps them), so requests go out on reused connections
   */
  public ScriptedServer(List<Behaviour> script, boolean keepAlive) throws IOException {
    this(script, keepAlive, 0);
  }

  /**
   * @param port the loopback port to listen on (0: a free one), e.g. one that refused connections
   *     until now
   */
  public ScriptedServer(List<Behaviour> script, boolean keepAlive, int port) throws IOException {
    this.keepAlive = keepAlive;
    this.script = List.copyOf(script);
    this.socket = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
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
  public List<Map<String, String>> completionHeaders() {
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

  /** The {@code x-request-id} of each completion request received, in arrival order. */
  public List<String> requestIds() {
    return exchanges.stream().map(e -> e.headers().getOrDefault("x-request-id", "")).toList();
  }

  /** The behaviour each request id was answered with (a resent id maps to its last answer). */
  public Map<String, Behaviour> behaviourById() {
    return Collections.unmodifiableMap(behaviourById);
  }

  /**
   * Every request received, as its method and path ({@code POST /v1/chat/completions}), in arrival
   * order.
   */
  public List<String> received() {
    return received;
  }

  /**
   * Answers {@code request} (a method and path, e.g. {@code POST /start_profile}) with {@code
   * status} and an empty JSON body; requests of no known route answer 404 otherwise.
   */
  public ScriptedServer answer(String request, int status) {
    answers.put(request, status);
    return this;
  }

  /**
   * For this long from the first request it receives, GET /health and GET /v1/models answer 503, as
   * a server still loading.
   */
  public ScriptedServer notReadyFor(long ms) {
    notReadyMs = ms;
    return this;
  }

  /**
   * Its first {@code polls} {@code GET /health} answer 503, and so does each {@code GET /v1/models}
   * until then: a server still loading for that many of the kit's readiness polls, whatever their
   * pace (a server loading for a time is answered by how soon the polls came).
   */
  public ScriptedServer notReadyForPolls(int polls) {
    notReadyPolls = polls;
    return this;
  }

  /** GET /health and GET /v1/models always answer 503: a server that never finishes loading. */
  public ScriptedServer neverReady() {
    return notReadyFor(Long.MAX_VALUE / 2);
  }

  /** How many connections were accepted. */
  public int connections() {
    return connections.get();
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
    connections.incrementAndGet();
    try (s) {
      InputStream in = new BufferedInputStream(s.getInputStream());
      OutputStream out = s.getOutputStream();
      boolean open = true;
      while (open && !s.isClosed()) {
        open = serveOne(s, in, out) && keepAlive;
      }
    } catch (IOException | InterruptedException e) {
      // the client went away: nothing to do
    }
  }

  /** Answers one request; false when the connection must not carry another. */
  private boolean serveOne(Socket s, InputStream in, OutputStream out)
      throws IOException, InterruptedException {
    String head = readHead(in);
    if (head == null) {
      return false;
    }
    String requestLine = head.substring(0, head.indexOf("\r\n"));
    int length = 0;
    String authorization = "";
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        headers.put(
            line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).trim());
      }
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
      if (line.toLowerCase(Locale.ROOT).startsWith("authorization:")) {
        authorization = line.substring(14).trim();
      }
    }
    byte[] body = in.readNBytes(length);
    String request = requestLine.replaceFirst(" HTTP/1\\.[01]$", "");
    received.add(request);
    long now = System.currentTimeMillis();
    firstRequestMs.compareAndSet(0, now);
    int polls = request.equals("GET /health") ? healthAsked.incrementAndGet() : healthAsked.get();
    if ((request.equals("GET /health") || request.startsWith("GET /v1/models"))
        && (now < firstRequestMs.get() + notReadyMs
            || (notReadyPolls > 0 && polls <= notReadyPolls))) {
      respond(out, 503, "application/json", "{\"detail\":\"loading\"}");
      return true;
    }
    Integer scripted = answers.get(request);
    if (scripted != null) {
      respond(out, scripted, "application/json", "{}");
      return true;
    }
    if (requestLine.startsWith("GET /v1/models")) {
      respond(
          out,
          200,
          "application/json",
          "{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL + "\",\"object\":\"model\"}]}");
      return true;
    } else if (requestLine.startsWith("POST /tokenize")) {
      respond(out, 404, "application/json", "{\"detail\":\"Not Found\"}");
      return true;
    } else if (requestLine.startsWith("POST /v1/chat/completions")) {
      completionBodies.add(new String(body, StandardCharsets.UTF_8));
      authorizations.add(authorization);
      completionHeaders.add(headers);
      int n = next.getAndIncrement();
      String text = new String(body, StandardCharsets.UTF_8);
      Behaviour b = script.get(Math.floorMod(n, script.size()));
      behaviourById.put(headers.getOrDefault("x-request-id", ""), b);
      if (b == Behaviour.OK && callsATool(text)) {
        exchanges.add(new Exchange(headers, text, ""));
        return toolCall(out, n);
      }
      StringBuilder answer = new StringBuilder();
      for (int i = 0; i < TOKENS; i++) {
        answer.append(" r").append(n).append('w').append(i);
      }
      exchanges.add(new Exchange(headers, text, answer.toString()));
      return stream(s, out, b, n);
    }
    respond(out, 404, "application/json", "{}");
    return true;
  }

  /**
   * Streams the answer; true when it ended cleanly and the connection may carry another request.
   */
  private boolean stream(Socket socket, OutputStream out, Behaviour b, int n)
      throws IOException, InterruptedException {
    switch (b) {
      case SILENT -> {
        Thread.sleep(8_000);
        return false;
      }
      case HTTP_500 -> {
        respond(
            out,
            500,
            "application/json",
            "{\"error\":{\"message\":\"boom\",\"type\":\"InternalServerError\",\"code\":500}}");
        return true;
      }
      case RESET_BEFORE_HEADERS -> {
        socket.setSoLinger(true, 0); // close() then sends RST, not FIN
        socket.close();
        return false;
      }
      case CLOSE_BEFORE_HEADERS -> {
        socket.close();
        return false;
      }
      case JSON_ANSWER -> {
        respond(
            out,
            200,
            "application/json",
            "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\""
                + MODEL
                + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}");
        return true;
      }
      default -> {}
    }
    streamStart(out);
    for (int i = 0; i < TOKENS; i++) {
      Thread.sleep(20);
      if (b == Behaviour.ERROR_EVENT && i == 2) {
        event(
            out,
            "{\"error\":{\"message\":\"engine <script>alert(1)</script> died\",\"type\":\"InternalServerError\",\"code\":500}}");
        endChunked(out);
        return true;
      }
      if (b == Behaviour.CUT_MID_STREAM && i == 2) {
        // half an event, then the socket closed without the terminating chunk
        byte[] half = "data: {\"choices\":[{\"delta\"".getBytes(StandardCharsets.US_ASCII);
        out.write(
            (Integer.toHexString(half.length + 10) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(half);
        out.flush();
        socket.close();
        cutAtMs.add(System.currentTimeMillis());
        return false;
      }
      if (b == Behaviour.MALFORMED_CHUNK && i == 1) {
        out.write("zz\r\ndata: {}\n\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(200); // the client gives up on the connection; nothing more is sent
        return false;
      }
      if (b == Behaviour.INVALID_JSON && i == 2) {
        event(out, "{\"choices\":[{\"delta\":{\"content\":\"tr");
        continue;
      }
      if (b == Behaviour.INVALID_UTF8 && i == 2) {
        byte[] prefix =
            ("data: " + chunk("{\"content\":\" X\"}", null) + "\n\n")
                .getBytes(StandardCharsets.UTF_8);
        int x = new String(prefix, StandardCharsets.US_ASCII).indexOf(" X");
        prefix[x + 1] = (byte) 0xC3; // a lead byte followed by an ASCII quote: never valid UTF-8
        rawChunk(out, prefix);
        continue;
      }
      if (b == Behaviour.STALL && i == 2) {
        Thread.sleep(8_000);
        return false;
      }
      event(
          out,
          chunk("{\"content\":\" r" + n + "w" + i + "\"}", i == TOKENS - 1 ? "\"length\"" : null));
    }
    if (b != Behaviour.OK_NO_USAGE) {
      event(
          out,
          "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\""
              + MODEL
              + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"total_tokens\":"
              + (7 + TOKENS)
              + ",\"completion_tokens\":"
              + TOKENS
              + "}}");
    }
    if (b != Behaviour.END_WITHOUT_DONE) {
      event(out, "[DONE]");
    }
    endChunked(out);
    return true;
  }

  /**
   * Whether an OK answer is a tool call: the request offers tools and its last message is not a
   * tool's result (as a model that calls a tool, then answers with its result).
   */
  private static boolean callsATool(String body) {
    try {
      JsonNode json = JSON.readTree(body);
      JsonNode messages = json.path("messages");
      return json.path("tools").size() > 0
          && !(messages.size() > 0
              && "tool".equals(messages.get(messages.size() - 1).path("role").asText()));
    } catch (IOException e) {
      return false;
    }
  }

  /** The id of the tool call that request {@code n} answers with. */
  public static String toolCallId(int n) {
    return "call_r" + n;
  }

  /** A tool call streamed as vLLM does: id and name first, the arguments in two pieces. */
  private boolean toolCall(OutputStream out, int n) throws IOException, InterruptedException {
    streamStart(out);
    Thread.sleep(20);
    event(
        out,
        chunk(
            "{\"tool_calls\":[{\"index\":0,\"id\":\""
                + toolCallId(n)
                + "\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{\\\"q\\\":\"}}]}",
            null));
    Thread.sleep(20);
    event(
        out,
        chunk(
            "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"r" + n + "\\\"}\"}}]}",
            "\"tool_calls\""));
    event(
        out,
        "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\""
            + MODEL
            + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"total_tokens\":10,"
            + "\"completion_tokens\":3}}");
    event(out, "[DONE]");
    endChunked(out);
    return true;
  }

  /** A stream's status line and headers, and its role chunk. */
  private void streamStart(OutputStream out) throws IOException {
    out.write(
        ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                + connectionHeader()
                + "\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    event(out, chunk("{\"role\":\"assistant\",\"content\":\"\"}", null));
  }

  private String connectionHeader() {
    return keepAlive ? "" : "Connection: close\r\n";
  }

  private static String chunk(String delta, String finish) {
    return "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\""
        + MODEL
        + "\",\"choices\":[{\"index\":0,\"delta\":"
        + delta
        + ",\"logprobs\":null,\"finish_reason\":"
        + finish
        + "}]}";
  }

  private static void event(OutputStream out, String data) throws IOException {
    rawChunk(out, ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
  }

  private static void rawChunk(OutputStream out, byte[] bytes) throws IOException {
    out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static void endChunked(OutputStream out) throws IOException {
    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private void respond(OutputStream out, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    out.write(
        ("HTTP/1.1 "
                + status
                + " X\r\nContent-Type: "
                + type
                + "\r\nContent-Length: "
                + bytes.length
                + "\r\n"
                + connectionHeader()
                + "\r\n")
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
