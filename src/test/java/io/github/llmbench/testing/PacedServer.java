package io.github.llmbench.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * A minimal OpenAI-compatible streaming server on loopback with fixed pacing: each stream's first
 * content chunk TTFT after its request arrived, then one content chunk every ITL, {@code
 * max_tokens} of them (capped). It answers what the kit checks before loading a server ({@code GET
 * /v1/models}, {@code POST /tokenize} in vLLM's form, one token per word, so prompt calibration is
 * exact) and streams {@code /v1/chat/completions} and {@code /v1/completions} in vLLM's layout:
 * role chunk (chat) together with the first content chunk, as vLLM sends it when the first output
 * arrives; the finish reason on the last content chunk; the usage chunk and {@code [DONE]} right
 * after it.
 *
 * <p>It records, per request (keyed by {@code x-request-id}), the receive time and each content
 * chunk's send time: {@link System#nanoTime()} right after the chunk's write and flush returned, so
 * the kernel has the bytes (when it could not take them all at once, the chunk is counted in {@link
 * StreamRecord#queuedWrites()}). {@code nanoTime} is CLOCK_MONOTONIC on Linux, shared by all
 * processes of the machine, so a client's own clock readings can be compared with these.
 *
 * <p>Pacing: chunk {@code k} is due at {@code receive + TTFT + k x ITL} (never relative to the
 * previous send, so lateness does not accumulate). One tick task per event loop sends every due
 * chunk, in due order (a binary heap of the streams keyed by their next due time), then re-arms
 * itself for the earliest next one; no task and no promise per chunk, one pooled buffer and one
 * write system call per chunk.
 *
 * <p>Run alone, {@link #main} reads commands on standard input (see {@link #main}), which lets a
 * benchmark in another JVM fetch the recordings; it exits when its input closes.
 */
public final class PacedServer implements AutoCloseable {

  public static final String MODEL = "paced-model";

  /**
   * Large enough for any prompt the kit sends; reported by /v1/models and /tokenize as vLLM does.
   */
  public static final int MAX_MODEL_LEN = 131_072;

  /**
   * Longest a tick keeps sending before it lets the event loop read and accept (it continues right
   * after): under overload the loop would otherwise never read new requests.
   */
  private static final long TICK_BUDGET_NANOS = 1_000_000;

  /**
   * How often the watchdog looks for a tick overdue by more than {@link #OVERDUE_NANOS}. Netty's
   * epoll loop can miss a timer: when a scheduled task falls due between its "can I block?" check
   * and its computing the wait, the wait is 0 s 0 ns, which timerfd_settime takes as "disarm", and
   * the loop sleeps until the next I/O event. A paced server has no I/O between requests, so a
   * missed tick would wait for the next request (seconds once the client is saturated).
   */
  private static final long WATCHDOG_PERIOD_NANOS = 1_000_000;

  private static final long OVERDUE_NANOS = 1_000_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * How the server paces its streams.
   *
   * @param chunkCap most content chunks per stream, whatever {@code max_tokens} asks
   */
  public record Pacing(long ttftNanos, long itlNanos, int chunkCap) {
    public Pacing {
      if (ttftNanos < 0 || itlNanos < 0 || chunkCap < 1) {
        throw new IllegalArgumentException("ttft and itl must be >= 0 and the chunk cap >= 1");
      }
    }

    /** From milliseconds, fractional allowed (7.3 ms is 7,300,000 ns exactly). */
    public static Pacing ofMillis(double ttftMs, double itlMs, int chunkCap) {
      return new Pacing(Math.round(ttftMs * 1e6), Math.round(itlMs * 1e6), chunkCap);
    }
  }

  /**
   * One stream as recorded.
   *
   * @param id the request's {@code x-request-id} (or {@code paced-<n>} when it had none)
   * @param receivedNanos when the whole request had arrived (nanoTime)
   * @param firstDueNanos when content chunk 0 was due: receive + TTFT
   * @param itlNanos the pacing interval; chunk k was due at {@code firstDueNanos + k x itlNanos}
   * @param planned content chunks the stream was to send
   * @param sentNanos send time of each content chunk sent (nanoTime after write and flush)
   * @param queuedWrites chunks whose bytes the socket did not take at once (their send time is when
   *     Netty queued them, not when the kernel had them)
   * @param cancelled whether the client went away before the last chunk
   */
  public record StreamRecord(
      String id,
      long receivedNanos,
      long firstDueNanos,
      long itlNanos,
      int planned,
      long[] sentNanos,
      int queuedWrites,
      boolean cancelled) {

    /** When content chunk {@code k} was due. */
    public long scheduledNanos(int k) {
      return firstDueNanos + k * itlNanos;
    }

    /** Content chunks sent. */
    public int sent() {
      return sentNanos.length;
    }
  }

  // ---- wire format: vLLM's, as the kit's simulator writes it (StreamWriter) ----

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final byte[] DATA = bytes("data: ");
  private static final byte[] CHAT_ROLE =
      bytes(
          "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
  private static final byte[] CHAT_MID = bytes("{\"index\":0,\"delta\":{\"content\":");
  private static final byte[] CHAT_TAIL =
      bytes("},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
  private static final byte[] CHAT_TAIL_LAST =
      bytes("},\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}\n\n");
  private static final byte[] CMPL_MID = bytes("{\"index\":0,\"text\":");
  private static final byte[] CMPL_TAIL =
      bytes(",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}]}\n\n");
  private static final byte[] CMPL_TAIL_LAST =
      bytes(",\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}]}\n\n");
  private static final byte[] DONE = bytes("data: [DONE]\n\n");
  private static final byte[] HEX = bytes("0123456789abcdef");
  private static final short CRLF = ('\r' << 8) | '\n';

  /** The text of content chunk k is {@code WORDS[k % 16]}; JSON-quoted once here. */
  static final String[] WORDS = {
    " The", " server", " sends", " one", " chunk", " every", " interval", ",",
    " on", " time", " and", " records", " when", " it", " did", "."
  };

  private static final byte[][] WORDS_JSON =
      Arrays.stream(WORDS).map(w -> bytes(quote(w))).toArray(byte[][]::new);

  private static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---- server ----

  private final Pacing pacing;
  private final EventLoopGroup group;
  private final Channel serverChannel;
  private final int port;
  private final String transport;
  private final Map<EventLoop, Pacer> pacers = new ConcurrentHashMap<>();
  private final AtomicLong unnamed = new AtomicLong();

  /** Called once with the receive time of the next completion request, then cleared. */
  private final AtomicReference<LongConsumer> nextStreamListener = new AtomicReference<>();

  private final Thread watchdog;
  private volatile boolean closed;

  private PacedServer(Pacing pacing, int port, int threads, boolean preferEpoll)
      throws InterruptedException {
    this.pacing = pacing;
    boolean epoll = preferEpoll && epollAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channel =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    this.transport = epoll ? "epoll" : "nio";
    this.group =
        new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("paced-io", true), io);
    try {
      ServerBootstrap b =
          new ServerBootstrap()
              .group(group)
              .channel(channel)
              .option(ChannelOption.SO_BACKLOG, 4096)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                      c.pipeline()
                          .addLast(
                              new HttpServerCodec(),
                              new HttpObjectAggregator(1 << 20),
                              new Handler());
                    }
                  });
      // 127.0.0.1 only: never reachable from other machines.
      this.serverChannel = b.bind(new InetSocketAddress("127.0.0.1", port)).sync().channel();
    } catch (RuntimeException | InterruptedException e) {
      group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      throw e;
    }
    this.port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
    this.watchdog = new Thread(this::watch, "paced-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private void watch() {
    while (!closed) {
      LockSupport.parkNanos(WATCHDOG_PERIOD_NANOS);
      long now = System.nanoTime();
      for (Pacer p : pacers.values()) {
        p.kickIfOverdue(now);
      }
    }
  }

  private static boolean epollAvailable() {
    try {
      return Epoll.isAvailable();
    } catch (Throwable e) { // native library missing
      return false;
    }
  }

  /**
   * Starts a server on 127.0.0.1 (port 0: a free one) with {@code threads} event loops (1 is the
   * intended setting: one core's worth of server), native epoll where available, else NIO.
   */
  public static PacedServer start(Pacing pacing, int port, int threads) {
    try {
      return new PacedServer(pacing, port, threads, true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting", e);
    }
  }

  public int port() {
    return port;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  public Pacing pacing() {
    return pacing;
  }

  /** {@code epoll} or {@code nio}. */
  public String transport() {
    return transport;
  }

  /**
   * Calls {@code listener} once, from an event loop, with the receive time (nanoTime) of the next
   * completion request: a benchmark's time origin for its measurement window.
   */
  public void onNextStream(LongConsumer listener) {
    nextStreamListener.set(listener);
  }

  /**
   * The streams recorded since the last call, finished or cancelled, and a copy of those still
   * streaming (with the chunks sent so far); in the order they ended, then the live ones.
   */
  public List<StreamRecord> takeRecords() {
    List<StreamRecord> out = new ArrayList<>();
    for (Pacer p : pacers.values()) {
      try {
        out.addAll(p.loop.submit(p::take).get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      }
    }
    return out;
  }

  /** Content chunks sent since start, all loops (approximate while streams run). */
  public long chunksSent() {
    return pacers.values().stream().mapToLong(p -> p.chunksSent).sum();
  }

  /** Ticks run since start, all loops: chunks per tick tells how much the sends are batched. */
  public long ticks() {
    return pacers.values().stream().mapToLong(p -> p.ticks).sum();
  }

  /** Ticks the watchdog had to start since start, all loops (see {@link #OVERDUE_NANOS}). */
  public long watchdogKicks() {
    return pacers.values().stream().mapToLong(p -> p.kicks).sum();
  }

  @Override
  public void close() {
    closed = true;
    serverChannel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private Pacer pacer(EventLoop loop) {
    return pacers.computeIfAbsent(loop, Pacer::new);
  }

  /** One stream being sent; touched only by its channel's event loop. */
  private static final class Stream {
    final String id;
    final Channel channel;

    /**
     * The HTTP codec's context: what is written from it skips the HTTP encoder (raw chunk bytes).
     */
    final ChannelHandlerContext raw;

    final boolean chat;
    final boolean includeUsage;
    final boolean keepAlive;
    final int planned;
    final int promptTokens;
    final long receivedNanos;
    final long firstDueNanos;
    final long itlNanos;

    /** {"id":..,"object":..,"created":..,"model":..,"choices":[ */
    final byte[] head;

    /** data: {head}{"index":0,"delta":{"content": (or "text":) */
    final byte[] prefix;

    final long[] sentNanos;
    int sent;
    int queuedWrites;
    boolean cancelled;
    boolean ended;

    Stream(
        String id,
        ChannelHandlerContext handlerCtx,
        boolean chat,
        boolean includeUsage,
        boolean keepAlive,
        int planned,
        int promptTokens,
        long receivedNanos,
        Pacing pacing) {
      this.id = id;
      this.channel = handlerCtx.channel();
      this.raw = channel.pipeline().context(HttpServerCodec.class);
      this.chat = chat;
      this.includeUsage = includeUsage;
      this.keepAlive = keepAlive;
      this.planned = planned;
      this.promptTokens = promptTokens;
      this.receivedNanos = receivedNanos;
      this.firstDueNanos = receivedNanos + pacing.ttftNanos();
      this.itlNanos = pacing.itlNanos();
      this.sentNanos = new long[planned];
      ThreadLocalRandom rnd = ThreadLocalRandom.current();
      // vLLM: f"chatcmpl-{uuid4().hex}" / f"cmpl-{uuid4().hex}"
      String responseId =
          (chat ? "chatcmpl-" : "cmpl-") + hex16(rnd.nextLong()) + hex16(rnd.nextLong());
      this.head =
          bytes(
              "{\"id\":\""
                  + responseId
                  + "\",\"object\":\""
                  + (chat ? "chat.completion.chunk" : "text_completion")
                  + "\",\"created\":"
                  + System.currentTimeMillis() / 1000
                  + ",\"model\":\""
                  + MODEL
                  + "\",\"choices\":[");
      byte[] mid = chat ? CHAT_MID : CMPL_MID;
      this.prefix = new byte[DATA.length + head.length + mid.length];
      System.arraycopy(DATA, 0, prefix, 0, DATA.length);
      System.arraycopy(head, 0, prefix, DATA.length, head.length);
      System.arraycopy(mid, 0, prefix, DATA.length + head.length, mid.length);
    }

    long nextDueNanos() {
      return firstDueNanos + sent * itlNanos;
    }

    /**
     * Writes content chunk {@code sent} (with the role chunk before the first, and usage and [DONE]
     * after the last) and returns nanoTime once the write and flush returned.
     */
    long sendNext() {
      int k = sent;
      boolean last = k == planned - 1;
      boolean role = k == 0 && chat;
      byte[] word = WORDS_JSON[k & 15];
      byte[] tail =
          chat ? (last ? CHAT_TAIL_LAST : CHAT_TAIL) : (last ? CMPL_TAIL_LAST : CMPL_TAIL);
      int data = prefix.length + word.length + tail.length;
      if (role) {
        data += DATA.length + head.length + CHAT_ROLE.length;
      }
      if (last) {
        // Once per stream, through the HTTP encoder: it frames the chunk, adds the terminating
        // "0\r\n\r\n" and resets its state for the next response on this keep-alive connection.
        byte[] usage = includeUsage ? usageEvent() : null;
        data += (usage == null ? 0 : usage.length) + DONE.length;
        ByteBuf buf = channel.alloc().directBuffer(data);
        writeEvent(buf, role, word, tail);
        if (usage != null) {
          buf.writeBytes(usage);
        }
        buf.writeBytes(DONE);
        if (keepAlive) {
          channel.writeAndFlush(new DefaultLastHttpContent(buf), channel.voidPromise());
        } else {
          channel
              .writeAndFlush(new DefaultLastHttpContent(buf))
              .addListener(ChannelFutureListener.CLOSE);
        }
      } else {
        // The whole HTTP chunk ("<hex size>\r\n<data>\r\n", what Netty's encoder would write) in
        // one pooled buffer, written from the codec's context straight to the socket: one write
        // system call, and a void promise, so nothing is allocated per chunk but the buffer.
        int hex = hexDigits(data);
        ByteBuf buf = raw.alloc().directBuffer(hex + 2 + data + 2);
        for (int shift = (hex - 1) * 4; shift >= 0; shift -= 4) {
          buf.writeByte(HEX[(data >>> shift) & 0xf]);
        }
        buf.writeShort(CRLF);
        writeEvent(buf, role, word, tail);
        buf.writeShort(CRLF);
        raw.writeAndFlush(buf, raw.voidPromise());
      }
      long now = System.nanoTime();
      sentNanos[k] = now;
      sent = k + 1;
      ChannelOutboundBuffer pending = channel.unsafe().outboundBuffer();
      if (pending != null && pending.totalPendingWriteBytes() > 0) {
        queuedWrites++;
      }
      return now;
    }

    private void writeEvent(ByteBuf buf, boolean role, byte[] word, byte[] tail) {
      if (role) {
        buf.writeBytes(DATA).writeBytes(head).writeBytes(CHAT_ROLE);
      }
      buf.writeBytes(prefix).writeBytes(word).writeBytes(tail);
    }

    /** vLLM's usage chunk (UsageInfo's field order: prompt, total, completion). */
    private byte[] usageEvent() {
      return bytes(
          "data: "
              + new String(head, StandardCharsets.UTF_8)
              + "],\"usage\":{\"prompt_tokens\":"
              + promptTokens
              + ",\"total_tokens\":"
              + (promptTokens + planned)
              + ",\"completion_tokens\":"
              + planned
              + "}}\n\n");
    }

    StreamRecord record() {
      return new StreamRecord(
          id,
          receivedNanos,
          firstDueNanos,
          itlNanos,
          planned,
          Arrays.copyOf(sentNanos, sent),
          queuedWrites,
          cancelled);
    }

    private static int hexDigits(int v) {
      return Math.max(1, (35 - Integer.numberOfLeadingZeros(v)) / 4);
    }

    private static String hex16(long v) {
      String s = Long.toHexString(v);
      return "0000000000000000".substring(s.length()) + s;
    }
  }

  /**
   * The pacing of one event loop: its streams in a binary min-heap on their next due time (parallel
   * arrays, so a send costs no allocation), one scheduled tick at the earliest due time.
   */
  private static final class Pacer implements Runnable {
    final EventLoop loop;
    private long[] due = new long[1024];
    private Stream[] heap = new Stream[1024];
    private int size;
    private ScheduledFuture<?> timer;
    private long timerDue = Long.MAX_VALUE;

    /** Streams that ended (or were cancelled) since the last take. */
    private List<Stream> ended = new ArrayList<>();

    volatile long chunksSent;
    volatile long ticks;

    /** Written by the watchdog only. */
    volatile long kicks;

    /** The due time the loop sleeps towards (Long.MAX_VALUE: none, or a tick is running). */
    private volatile long waitingFor = Long.MAX_VALUE;

    private volatile boolean kickPending;

    Pacer(EventLoop loop) {
      this.loop = loop;
    }

    void add(Stream s) {
      push(s.nextDueNanos(), s);
      arm(System.nanoTime());
    }

    /** The client went away: the stream ends now; its heap entry is dropped when it comes due. */
    void cancel(Stream s) {
      if (!s.ended) {
        s.cancelled = true;
        end(s);
      }
    }

    /** On the watchdog's thread: starts the tick if the loop missed it. */
    void kickIfOverdue(long now) {
      if (now - waitingFor > OVERDUE_NANOS && !kickPending) {
        kickPending = true;
        kicks++;
        loop.execute(this::kicked);
      }
    }

    private void kicked() {
      kickPending = false;
      if (timer != null) {
        timer.cancel(false);
      }
      run();
    }

    /** The tick: sends every chunk due by now (now moving on with each send), then re-arms. */
    @Override
    public void run() {
      timer = null;
      timerDue = Long.MAX_VALUE;
      waitingFor = Long.MAX_VALUE;
      ticks++;
      long now = System.nanoTime();
      long yieldAt = now + TICK_BUDGET_NANOS;
      long sentHere = 0;
      while (size > 0 && due[0] <= now) {
        Stream s = heap[0];
        if (s.ended) {
          pop();
          continue;
        }
        now = s.sendNext();
        sentHere++;
        if (s.sent == s.planned) {
          pop();
          end(s);
        } else {
          due[0] = s.nextDueNanos();
          siftDown(0);
        }
        if (now > yieldAt) {
          // Behind schedule: let the loop read and accept, then carry on at once.
          timerDue = now;
          waitingFor = now;
          timer = loop.schedule(this, 0, TimeUnit.NANOSECONDS);
          chunksSent += sentHere;
          return;
        }
      }
      chunksSent += sentHere;
      arm(now);
    }

    private void arm(long now) {
      if (size == 0 || due[0] >= timerDue) {
        return;
      }
      if (timer != null) {
        timer.cancel(false);
      }
      timerDue = due[0];
      waitingFor = timerDue;
      timer = loop.schedule(this, Math.max(0, due[0] - now), TimeUnit.NANOSECONDS);
    }

    private void end(Stream s) {
      s.ended = true;
      ended.add(s);
    }

    List<StreamRecord> take() {
      List<StreamRecord> out = new ArrayList<>(ended.size() + size);
      for (Stream s : ended) {
        out.add(s.record());
      }
      ended = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        if (!heap[i].ended) {
          out.add(heap[i].record());
        }
      }
      return out;
    }

    private void push(long d, Stream s) {
      if (size == due.length) {
        due = Arrays.copyOf(due, size * 2);
        heap = Arrays.copyOf(heap, size * 2);
      }
      int i = size++;
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (due[parent] <= d) {
          break;
        }
        due[i] = due[parent];
        heap[i] = heap[parent];
        i = parent;
      }
      due[i] = d;
      heap[i] = s;
    }

    private void pop() {
      size--;
      if (size > 0) {
        due[0] = due[size];
        heap[0] = heap[size];
        siftDown(0);
      }
      heap[size] = null;
    }

    private void siftDown(int i) {
      long d = due[i];
      Stream s = heap[i];
      int half = size >>> 1;
      while (i < half) {
        int child = 2 * i + 1;
        int right = child + 1;
        if (right < size && due[right] < due[child]) {
          child = right;
        }
        if (d <= due[child]) {
          break;
        }
        due[i] = due[child];
        heap[i] = heap[child];
        i = child;
      }
      due[i] = d;
      heap[i] = s;
    }
  }

  /** Routes the endpoints; one per connection. */
  private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
    /** The stream on this connection, if any (HTTP/1.1: one at a time). */
    private Stream current;

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
      long received = System.nanoTime();
      boolean keepAlive = HttpUtil.isKeepAlive(req);
      String path = req.uri();
      int q = path.indexOf('?');
      if (q >= 0) {
        path = path.substring(0, q);
      }
      HttpMethod method = req.method();
      try {
        switch (path) {
          case "/health" ->
              send(ctx, full(HttpResponseStatus.OK, new byte[0], null, keepAlive), keepAlive);
          case "/v1/models" -> {
            require(method, HttpMethod.GET);
            send(ctx, json(HttpResponseStatus.OK, models(), keepAlive), keepAlive);
          }
          case "/tokenize" -> {
            require(method, HttpMethod.POST);
            send(ctx, json(HttpResponseStatus.OK, tokenize(body(req)), keepAlive), keepAlive);
          }
          case "/detokenize" -> {
            require(method, HttpMethod.POST);
            send(ctx, json(HttpResponseStatus.OK, detokenize(body(req)), keepAlive), keepAlive);
          }
          case "/v1/chat/completions", "/v1/completions" -> {
            require(method, HttpMethod.POST);
            stream(ctx, req, body(req), path.equals("/v1/chat/completions"), keepAlive, received);
          }
          default ->
              send(
                  ctx,
                  json(
                      HttpResponseStatus.NOT_FOUND,
                      JSON.createObjectNode().put("detail", "Not Found"),
                      keepAlive),
                  keepAlive);
        }
      } catch (BadRequest e) {
        ObjectNode o = JSON.createObjectNode();
        ObjectNode err = o.putObject("error");
        err.put("message", e.getMessage());
        err.put("type", e.status == 404 ? "NotFoundError" : "BadRequestError");
        err.putNull("param");
        err.put("code", e.status);
        send(ctx, json(HttpResponseStatus.valueOf(e.status), o, keepAlive), keepAlive);
      }
    }

    private void stream(
        ChannelHandlerContext ctx,
        FullHttpRequest req,
        JsonNode body,
        boolean chat,
        boolean keepAlive,
        long received) {
      if (current != null && !current.ended) {
        // The kit never pipelines: a second request while one streams is a client bug.
        ctx.close();
        return;
      }
      checkModel(body);
      if (!body.path("stream").asBoolean(false)) {
        throw new BadRequest(400, "this paced server streams only: send \"stream\": true");
      }
      JsonNode max =
          body.hasNonNull("max_tokens")
              ? body.get("max_tokens")
              : body.get("max_completion_tokens");
      int requested = max == null || max.isNull() ? pacing.chunkCap() : max.asInt(0);
      if (requested < 1) {
        throw new BadRequest(400, "max_tokens must be at least 1, got " + max);
      }
      int promptTokens =
          chat ? chatPromptTokens(body.path("messages")) : words(body.path("prompt"));
      boolean includeUsage = body.path("stream_options").path("include_usage").asBoolean(false);
      String id = req.headers().get("x-request-id");
      if (id == null || id.isEmpty()) {
        id = "paced-" + unnamed.incrementAndGet();
      }
      // Response head at once, as uvicorn sends it when the handler starts streaming.
      DefaultHttpResponse head =
          new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
      head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
      if (!keepAlive) {
        head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      }
      ctx.writeAndFlush(head, ctx.voidPromise());
      Stream s =
          new Stream(
              id,
              ctx,
              chat,
              includeUsage,
              keepAlive,
              Math.min(requested, pacing.chunkCap()),
              promptTokens,
              received,
              pacing);
      current = s;
      LongConsumer first = nextStreamListener.getAndSet(null);
      if (first != null) {
        first.accept(received);
      }
      pacer(ctx.channel().eventLoop()).add(s);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      Stream s = current;
      if (s != null && !s.ended) {
        pacer(ctx.channel().eventLoop()).cancel(s);
      }
      current = null;
      super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  private static final class BadRequest extends RuntimeException {
    final int status;

    BadRequest(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }

  private static void require(HttpMethod actual, HttpMethod expected) {
    if (!actual.equals(expected)) {
      throw new BadRequest(405, "Method Not Allowed");
    }
  }

  private static void checkModel(JsonNode body) {
    JsonNode model = body.get("model");
    if (model != null && !model.isNull() && !MODEL.equals(model.asText())) {
      throw new BadRequest(404, "The model `" + model.asText() + "` does not exist.");
    }
  }

  private static JsonNode body(FullHttpRequest req) {
    try {
      byte[] b = new byte[req.content().readableBytes()];
      req.content().getBytes(req.content().readerIndex(), b);
      JsonNode n = JSON.readTree(b);
      if (n == null || !n.isObject()) {
        throw new BadRequest(400, "request body must be a JSON object");
      }
      return n;
    } catch (JsonProcessingException e) {
      throw new BadRequest(400, "Invalid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadRequest(400, "Invalid JSON: " + e.getMessage());
    }
  }

  /** vLLM's model list, with the fields the kit reads (id, max_model_len). */
  private static ObjectNode models() {
    ObjectNode o = JSON.createObjectNode();
    o.put("object", "list");
    ObjectNode card = o.putArray("data").addObject();
    card.put("id", MODEL);
    card.put("object", "model");
    card.put("created", System.currentTimeMillis() / 1000);
    card.put("owned_by", "vllm");
    card.put("root", MODEL);
    card.putNull("parent");
    card.put("max_model_len", MAX_MODEL_LEN);
    return o;
  }

  /**
   * vLLM's form: {@code {"model","prompt"}} gives {@code {"count","max_model_len","tokens"}}; a
   * word is a token.
   */
  private static ObjectNode tokenize(JsonNode body) {
    checkModel(body);
    String prompt = body.path("prompt").asText("");
    String[] words = splitWords(prompt);
    ObjectNode o = JSON.createObjectNode();
    o.put("count", words.length);
    o.put("max_model_len", MAX_MODEL_LEN);
    ArrayNode tokens = o.putArray("tokens");
    for (String w : words) {
      tokens.add(Math.floorMod(w.hashCode(), 32_000));
    }
    o.putNull("token_strs");
    return o;
  }

  /** Token ids have no text here: each becomes the word {@code t<id>}. */
  private static ObjectNode detokenize(JsonNode body) {
    checkModel(body);
    StringBuilder sb = new StringBuilder();
    for (JsonNode t : body.path("tokens")) {
      sb.append(sb.length() == 0 ? "" : " ").append('t').append(t.asInt());
    }
    return JSON.createObjectNode().put("prompt", sb.toString());
  }

  private static String[] splitWords(String text) {
    String t = text.strip();
    return t.isEmpty() ? new String[0] : t.split("\\s+");
  }

  private static int words(JsonNode prompt) {
    if (prompt.isArray()) {
      int n = 0;
      for (JsonNode p : prompt) {
        n += p.isTextual() ? splitWords(p.asText()).length : 1;
      }
      return n;
    }
    return splitWords(prompt.asText("")).length;
  }

  private static int chatPromptTokens(JsonNode messages) {
    int n = 0;
    for (JsonNode m : messages) {
      n += words(m.path("content"));
    }
    return n;
  }

  private static void send(ChannelHandlerContext ctx, FullHttpResponse r, boolean keepAlive) {
    var f = ctx.writeAndFlush(r);
    if (!keepAlive) {
      f.addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static FullHttpResponse json(HttpResponseStatus status, Object body, boolean keepAlive) {
    try {
      return full(status, JSON.writeValueAsBytes(body), "application/json", keepAlive);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static FullHttpResponse full(
      HttpResponseStatus status, byte[] content, String type, boolean keepAlive) {
    FullHttpResponse r =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(content));
    if (type != null) {
      r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
    }
    r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.length);
    if (!keepAlive) {
      r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    return r;
  }

  // ---- recordings on disk: how a benchmark in another JVM reads them ----

  private static final int FILE_MAGIC = 0x50414345; // "PACE"
  private static final int FILE_VERSION = 1;

  /**
   * Writes records in a compact binary form (longs as 8 bytes), read back by {@link #readRecords}.
   */
  public static void writeRecords(List<StreamRecord> records, Path file) throws IOException {
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
      out.writeInt(FILE_MAGIC);
      out.writeInt(FILE_VERSION);
      out.writeInt(records.size());
      for (StreamRecord r : records) {
        out.writeUTF(r.id());
        out.writeLong(r.receivedNanos());
        out.writeLong(r.firstDueNanos());
        out.writeLong(r.itlNanos());
        out.writeInt(r.planned());
        out.writeInt(r.queuedWrites());
        out.writeBoolean(r.cancelled());
        out.writeInt(r.sentNanos().length);
        for (long t : r.sentNanos()) {
          out.writeLong(t);
        }
      }
    }
  }

  public static List<StreamRecord> readRecords(Path file) throws IOException {
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      if (in.readInt() != FILE_MAGIC || in.readInt() != FILE_VERSION) {
        throw new IOException(
            file + " is not a paced-server recording (version " + FILE_VERSION + ")");
      }
      int n = in.readInt();
      List<StreamRecord> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        String id = in.readUTF();
        long received = in.readLong();
        long firstDue = in.readLong();
        long itl = in.readLong();
        int planned = in.readInt();
        int queued = in.readInt();
        boolean cancelled = in.readBoolean();
        long[] sent = new long[in.readInt()];
        for (int k = 0; k < sent.length; k++) {
          sent[k] = in.readLong();
        }
        out.add(new StreamRecord(id, received, firstDue, itl, planned, sent, queued, cancelled));
      }
      return out;
    }
  }

  // ---- alone in its own JVM ----

  /**
   * Runs the server until standard input closes (its parent died or let go) or {@code
   * --max-seconds} passed. Options: {@code --port 0 --ttft-ms 10 --itl-ms 10 --chunk-cap 4096
   * --threads 1 --max-seconds 3600}. Prints {@code listening <port> <transport> <threads>} once
   * ready; then answers one line per command read:
   *
   * <ul>
   *   <li>{@code arm}: {@code armed}; the next completion request then prints {@code first <receive
   *       nanoTime>};
   *   <li>{@code take <file>}: writes the streams recorded since the last take to {@code file}
   *       ({@link #writeRecords}), answers {@code took <streams> <chunks>};
   *   <li>{@code sent}: {@code sent <content chunks> <ticks> <watchdog kicks>}, all since start;
   *   <li>{@code quit}: stops.
   * </ul>
   */
  public static void main(String[] args) throws Exception {
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    // Leak detection samples one buffer in 128 with a stack trace: measured as 1% of the event
    // loop's time here, and every buffer is released by Netty's own write path.
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    int port = 0;
    int threads = 1;
    int chunkCap = 4096;
    double ttftMs = 10;
    double itlMs = 10;
    long maxSeconds = 3600;
    for (int i = 0; i < args.length; i += 2) {
      String value = i + 1 < args.length ? args[i + 1] : "";
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(value);
        case "--threads" -> threads = Integer.parseInt(value);
        case "--chunk-cap" -> chunkCap = Integer.parseInt(value);
        case "--ttft-ms" -> ttftMs = Double.parseDouble(value);
        case "--itl-ms" -> itlMs = Double.parseDouble(value);
        case "--max-seconds" -> maxSeconds = Long.parseLong(value);
        default ->
            throw new IllegalArgumentException(
                args[i]
                    + ": unknown option; expected --port, --threads, "
                    + "--chunk-cap, --ttft-ms, --itl-ms or --max-seconds");
      }
    }
    PrintStream out = System.out;
    PacedServer server = start(Pacing.ofMillis(ttftMs, itlMs, chunkCap), port, threads);
    long lifetimeSeconds = maxSeconds;
    Thread limit =
        new Thread(
            () -> {
              try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(lifetimeSeconds));
                System.err.println(
                    "paced server: --max-seconds " + lifetimeSeconds + " reached, stopping");
                Runtime.getRuntime().halt(4);
              } catch (InterruptedException e) {
                // stopped normally
              }
            },
            "paced-max-seconds");
    limit.setDaemon(true);
    limit.start();
    synchronized (out) {
      out.println("listening " + server.port() + " " + server.transport() + " " + threads);
      out.flush();
    }
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        String[] cmd = line.trim().split(" ", 2);
        String reply;
        switch (cmd[0]) {
          case "arm" -> {
            server.onNextStream(
                t -> {
                  synchronized (out) {
                    out.println("first " + t);
                    out.flush();
                  }
                });
            reply = "armed";
          }
          case "take" -> {
            List<StreamRecord> records = server.takeRecords();
            writeRecords(records, Path.of(cmd[1]));
            reply =
                "took "
                    + records.size()
                    + " "
                    + records.stream().mapToLong(r -> r.sentNanos().length).sum();
          }
          case "sent" ->
              reply =
                  "sent "
                      + server.chunksSent()
                      + " "
                      + server.ticks()
                      + " "
                      + server.watchdogKicks();
          case "quit" -> reply = null;
          default -> reply = "error unknown command: " + line;
        }
        if (reply == null) {
          break;
        }
        synchronized (out) {
          out.println(reply);
          out.flush();
        }
      }
    } finally {
      server.close();
      limit.interrupt();
    }
    System.out.println("stopped");
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "PacedServer[%s, ttft %.3f ms, itl %.3f ms, cap %d, %s]",
        baseUrl(),
        pacing.ttftNanos() / 1e6,
        pacing.itlNanos() / 1e6,
        pacing.chunkCap(),
        transport);
  }
}
