package io.github.llmbench.simulator;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ByteProcessor;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load on the simulator from a lean Netty streaming client in the same JVM: N concurrent streaming
 * chat requests (closed loop: each connection sends its next request as soon as one ends), then
 * prints requests done, chunks/s and the simulator's send lateness. Runs two scenarios: the
 * default model/GPU and the fast sim-tiny model.
 *
 * <p>Flags: {@code --seconds 25 --warmup 5 --concurrency 512 --input-words 40 --max-tokens 128
 * --scenario both|default|tiny}.
 */
public final class SimulatorBenchmark {

  public static void main(String[] args) throws Exception {
    io.netty.util.internal.logging.InternalLoggerFactory.setDefaultFactory(
        io.netty.util.internal.logging.JdkLoggerFactory.INSTANCE);
    int seconds = 25, warmup = 5, concurrency = 512, inputWords = 40, maxTokens = 128;
    String scenario = "both";
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
        case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
        case "--concurrency" -> concurrency = Integer.parseInt(args[i + 1]);
        case "--input-words" -> inputWords = Integer.parseInt(args[i + 1]);
        case "--max-tokens" -> maxTokens = Integer.parseInt(args[i + 1]);
        case "--scenario" -> scenario = args[i + 1];
        default -> throw new IllegalArgumentException(args[i] + ": unknown argument");
      }
    }
    System.out.printf("java %s, %d cpus, max heap %d MB, gc %s%n", System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20, gcNames());
    if (!scenario.equals("tiny")) {
      run("default: qwen2.5-7b-instruct on rtx4080-32gb, max_num_seqs 256", SimulatorConfig.defaults(),
          seconds, warmup, concurrency, inputWords, maxTokens);
    }
    if (!scenario.equals("default")) {
      run("fast: sim-tiny on rtx4090, max_num_seqs 512, max_num_batched_tokens 8192",
          SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090").withMaxNumSeqs(512)
              .withMaxNumBatchedTokens(8192),
          seconds, warmup, concurrency, inputWords, maxTokens);
    }
  }

  private static String gcNames() {
    List<String> n = new ArrayList<>();
    for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      n.add(gc.getName());
    }
    return String.join("/", n);
  }

  private static long gcMillis() {
    long t = 0;
    for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      t += gc.getCollectionTime();
    }
    return t;
  }

  static final class Counters {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong events = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    volatile boolean stop;
  }

  private static void run(String title, SimulatorConfig config, int seconds, int warmup, int concurrency,
      int inputWords, int maxTokens) throws Exception {
    StringBuilder prompt = new StringBuilder();
    for (int i = 0; i < inputWords; i++) {
      prompt.append(i % 10 == 9 ? "word. " : "word ");
    }
    byte[] json = ("{\"model\":\"%s\",\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}],\"max_tokens\":%d,"
        + "\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}")
        .formatted(config.effectiveServedModelName(), prompt.toString().trim(), maxTokens)
        .getBytes(StandardCharsets.UTF_8);
    Counters c = new Counters();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("bench-client", true),
        io.netty.channel.epoll.Epoll.isAvailable() ? io.netty.channel.epoll.EpollIoHandler.newFactory()
            : NioIoHandler.newFactory());
    try (VllmSimulator sim = VllmSimulator.start(config)) {
      byte[] head = ("POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:%d\r\ncontent-type: application/json\r\n"
          + "content-length: %d\r\n\r\n").formatted(sim.port(), json.length).getBytes(StandardCharsets.US_ASCII);
      byte[] request = new byte[head.length + json.length];
      System.arraycopy(head, 0, request, 0, head.length);
      System.arraycopy(json, 0, request, head.length, json.length);
      Bootstrap b = new Bootstrap().group(group)
          .channel(io.netty.channel.epoll.Epoll.isAvailable() ? io.netty.channel.epoll.EpollSocketChannel.class
              : NioSocketChannel.class)
          .option(ChannelOption.TCP_NODELAY, true)
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(new StreamingClient(request, c));
            }
          });
      List<Channel> channels = new ArrayList<>();
      for (int i = 0; i < concurrency; i++) {
        channels.add(b.connect("127.0.0.1", sim.port()).sync().channel());
      }
      Thread.sleep(warmup * 1000L);
      sim.resetLateness();
      long r0 = c.requests.get(), e0 = c.events.get(), gc0 = gcMillis(), t0 = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      long r1 = c.requests.get(), e1 = c.events.get(), gc1 = gcMillis(), t1 = System.nanoTime();
      Lateness l = sim.lateness();
      c.stop = true;
      for (Channel ch : channels) {
        ch.close();
      }
      double secs = (t1 - t0) / 1e9;
      long requests = r1 - r0;
      // each request's stream: role + max_tokens content + usage + [DONE] events
      double chunksPerSec = (e1 - e0) * (double) maxTokens / (maxTokens + 3) / secs;
      System.out.println("== " + title);
      System.out.printf("   %d streams, prompt ~%d tokens, max_tokens %d, measured %.1f s after %d s warm-up%n",
          concurrency, inputWords + inputWords / 10 + 8, maxTokens, secs, warmup);
      System.out.printf("   requests done: %d (%.1f/s), content chunks/s: %.0f, errors: %d, running %d / waiting %d, GC %d ms%n",
          requests, requests / secs, chunksPerSec, c.errors.get(), sim.runningRequests(), sim.waitingRequests(), gc1 - gc0);
      System.out.printf("   send lateness: p50 %.1f ms, p99 %.1f ms, max %.2f ms (%d tokens)%n",
          l.p50Ms(), l.p99Ms(), l.maxMs(), l.count());
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /**
   * One keep-alive connection: sends a request, counts SSE events ({@code \n\n}) in the raw bytes
   * and sends the next request once {@code [DONE]} arrives. No HTTP decoding: the client shares the
   * 2 cores with the simulator, so it does as little per chunk as it can (the response head and the
   * chunk framing hold no {@code \n\n}; the server answers pipelined requests in order).
   */
  static final class StreamingClient extends ChannelInboundHandlerAdapter implements ByteProcessor {
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private final byte[] request;
    private final Counters c;
    private boolean newline;
    private int events;
    private int doneMatched;
    private boolean done;

    StreamingClient(byte[] request, Counters c) {
      this.request = request;
      this.c = c;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      send(ctx);
    }

    private void send(ChannelHandlerContext ctx) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(request), ctx.voidPromise());
    }

    @Override
    public boolean process(byte x) {
      if (x == '\n') {
        if (newline) {
          events++;
          newline = false;
        } else {
          newline = true;
        }
      } else {
        newline = false;
      }
      if (x == DONE[doneMatched]) {
        if (++doneMatched == DONE.length) {
          done = true;
          doneMatched = 0;
        }
      } else {
        doneMatched = x == DONE[0] ? 1 : 0;
      }
      return true;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        buf.forEachByte(this);
      } finally {
        buf.release();
      }
      if (events > 0) {
        c.events.addAndGet(events);
        events = 0;
      }
      if (done) {
        done = false;
        c.requests.incrementAndGet();
        if (!c.stop) {
          send(ctx);
        }
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (!c.stop) {
        c.errors.incrementAndGet();
      }
      ctx.close();
    }
  }
}
