package io.github.llmbench.simulator;

import com.sun.management.OperatingSystemMXBean;
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
import io.netty.channel.socket.SocketChannel;
import io.netty.util.ByteProcessor;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load on the simulator from a lean Netty streaming client in the same JVM: N concurrent streaming
 * chat requests (closed loop: each connection sends its next request as soon as one ends), then
 * prints requests done, chunks/s and the simulator's send lateness. Runs two scenarios: the default
 * model/GPU and the fast sim-tiny model.
 *
 * <p>Flags: {@code --seconds 25 --warmup 5 --concurrency 512 --input-words 40 --max-tokens 128
 * --scenario both|default|tiny --client-threads 1 --client-process false --outliers false}. {@code
 * --client-process true} runs the client in a child JVM (same classpath); {@code --outliers true}
 * prints the tokens over 2 ms late with their time in the run. {@code --transport
 * io_uring|epoll|nio} picks the simulator's transport (the best available by default) and {@code
 * --client-transport} the client's (default: the simulator's).
 */
public final class SimulatorBenchmark {

  public static void main(String[] args) throws Exception {
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    String model = null;
    int seconds = 25, warmup = 5, concurrency = 512, inputWords = 40, maxTokens = 128;
    String scenario = "both";
    int clientThreads = 1, port = 0;
    boolean clientProcess = false, outliers = false, clientOnly = false;
    Transport serverTransport = Transport.preferred();
    Transport clientTransport = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
        case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
        case "--concurrency" -> concurrency = Integer.parseInt(args[i + 1]);
        case "--input-words" -> inputWords = Integer.parseInt(args[i + 1]);
        case "--max-tokens" -> maxTokens = Integer.parseInt(args[i + 1]);
        case "--scenario" -> scenario = args[i + 1];
        case "--client-threads" -> clientThreads = Integer.parseInt(args[i + 1]);
        case "--client-process" -> clientProcess = Boolean.parseBoolean(args[i + 1]);
        case "--outliers" -> outliers = Boolean.parseBoolean(args[i + 1]);
        case "--client-only" -> {
          clientOnly = true;
          port = Integer.parseInt(args[i + 1]);
        }
        case "--model" -> model = args[i + 1];
        case "--transport" -> serverTransport = Transport.preferred(args[i + 1]);
        case "--client-transport" -> clientTransport = Transport.preferred(args[i + 1]);
        default -> throw new IllegalArgumentException(args[i] + ": unknown argument");
      }
    }
    if (clientTransport == null) {
      clientTransport = serverTransport;
    }
    if (clientOnly) {
      clientOnly(port, model, concurrency, inputWords, maxTokens, clientThreads, clientTransport);
      return;
    }
    Options o =
        new Options(
            seconds,
            warmup,
            concurrency,
            inputWords,
            maxTokens,
            clientThreads,
            clientProcess,
            outliers,
            serverTransport,
            clientTransport);
    System.out.printf(
        "java %s, %d cpus, max heap %d MB, gc %s, transport %s, sim io threads %s, client %s, %s (%d thread%s)%n",
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20,
        gcNames(),
        serverTransport,
        2,
        clientTransport,
        clientProcess ? "in a child JVM" : "in this JVM",
        clientThreads,
        clientThreads == 1 ? "" : "s");
    System.out.println("load: " + loadAverage());
    if (!scenario.equals("tiny")) {
      run(
          "default: qwen2.5-7b-instruct on rtx4080-32gb, max_num_seqs 256",
          SimulatorConfig.defaults(),
          o);
    }
    if (!scenario.equals("default")) {
      run(
          "fast: sim-tiny on rtx4090, max_num_seqs 512, max_num_batched_tokens 8192",
          SimulatorConfig.defaults()
              .withModel("sim-tiny")
              .withGpu("rtx4090")
              .withMaxNumSeqs(512)
              .withMaxNumBatchedTokens(8192),
          o);
    }
    System.out.println("load: " + loadAverage());
  }

  record Options(
      int seconds,
      int warmup,
      int concurrency,
      int inputWords,
      int maxTokens,
      int clientThreads,
      boolean clientProcess,
      boolean outliers,
      Transport serverTransport,
      Transport clientTransport) {}

  /**
   * This class's class path, also under {@code mvn exec:java} (a URLClassLoader over the test
   * scope).
   */
  private static String classPath() {
    if (SimulatorBenchmark.class.getClassLoader() instanceof URLClassLoader u
        && u.getURLs().length > 0) {
      List<String> p = new ArrayList<>();
      for (URL url : u.getURLs()) {
        try {
          p.add(Path.of(url.toURI()).toString());
        } catch (Exception e) {
          p.add(url.getPath());
        }
      }
      return String.join(File.pathSeparator, p);
    }
    return System.getProperty("java.class.path");
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (Exception e) {
      return String.format(
          "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  private static String gcNames() {
    List<String> n = new ArrayList<>();
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n.add(gc.getName());
    }
    return String.join("/", n);
  }

  private static long cpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long gcMillis() {
    long t = 0;
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
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

  private static byte[] request(String servedModel, int port, int inputWords, int maxTokens) {
    StringBuilder prompt = new StringBuilder();
    for (int i = 0; i < inputWords; i++) {
      prompt.append(i % 10 == 9 ? "word. " : "word ");
    }
    byte[] json =
        ("{\"model\":\"%s\",\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}],\"max_tokens\":%d,"
                + "\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}")
            .formatted(servedModel, prompt.toString().trim(), maxTokens)
            .getBytes(StandardCharsets.UTF_8);
    byte[] head =
        ("POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:%d\r\ncontent-type: application/json\r\n"
                + "content-length: %d\r\n\r\n")
            .formatted(port, json.length)
            .getBytes(StandardCharsets.US_ASCII);
    byte[] request = new byte[head.length + json.length];
    System.arraycopy(head, 0, request, 0, head.length);
    System.arraycopy(json, 0, request, head.length, json.length);
    return request;
  }

  /** Opens the streams; the client's event loops run until the group is shut down. */
  private static List<Channel> connect(
      EventLoopGroup group, Transport t, int port, byte[] request, Counters c, int concurrency)
      throws InterruptedException {
    Bootstrap b =
        new Bootstrap()
            .group(group)
            .channel(t.socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(new StreamingClient(request, c));
                  }
                });
    List<Channel> channels = new ArrayList<>();
    for (int i = 0; i < concurrency; i++) {
      channels.add(b.connect("127.0.0.1", port).sync().channel());
    }
    return channels;
  }

  /** The child JVM of {@code --client-process}: streams until its parent kills it. */
  private static void clientOnly(
      int port,
      String model,
      int concurrency,
      int inputWords,
      int maxTokens,
      int clientThreads,
      Transport t)
      throws Exception {
    EventLoopGroup group =
        new MultiThreadIoEventLoopGroup(
            clientThreads, new DefaultThreadFactory("bench-client", true), t.handlerFactory());
    connect(
        group, t, port, request(model, port, inputWords, maxTokens), new Counters(), concurrency);
    System.out.println("connected");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  private static void run(String title, SimulatorConfig config, Options o) throws Exception {
    Counters c = new Counters();
    Transport t = o.clientTransport();
    EventLoopGroup group =
        o.clientProcess()
            ? null
            : new MultiThreadIoEventLoopGroup(
                o.clientThreads(),
                new DefaultThreadFactory("bench-client", true),
                t.handlerFactory());
    Process child = null;
    try (VllmSimulator sim = VllmSimulator.start(config, o.serverTransport())) {
      List<Channel> channels = List.of();
      if (o.clientProcess()) {
        List<String> cmd =
            new ArrayList<>(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    classPath()));
        cmd.addAll(
            List.of(
                SimulatorBenchmark.class.getName(),
                "--client-only",
                String.valueOf(sim.port()),
                "--client-transport",
                o.clientTransport().name(),
                "--model",
                config.effectiveServedModelName(),
                "--concurrency",
                String.valueOf(o.concurrency()),
                "--input-words",
                String.valueOf(o.inputWords()),
                "--max-tokens",
                String.valueOf(o.maxTokens()),
                "--client-threads",
                String.valueOf(o.clientThreads())));
        child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        var out =
            new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.equals("connected")) {
          System.out.println("   client: " + line);
        }
        if (line == null) {
          throw new IllegalStateException("the client process exited");
        }
      } else {
        channels =
            connect(
                group,
                t,
                sim.port(),
                request(
                    config.effectiveServedModelName(), sim.port(), o.inputWords(), o.maxTokens()),
                c,
                o.concurrency());
      }
      Thread.sleep(o.warmup() * 1000L);
      sim.resetLateness();
      long r0 = c.requests.get(), gc0 = gcMillis(), cpu0 = cpuNanos(), t0 = System.nanoTime();
      Thread.sleep(o.seconds() * 1000L);
      long r1 = c.requests.get(), gc1 = gcMillis(), cpu1 = cpuNanos(), t1 = System.nanoTime();
      Lateness l = sim.lateness();
      long[] outliers = sim.latenessOutliers();
      c.stop = true;
      for (Channel ch : channels) {
        ch.close();
      }
      double secs = (t1 - t0) / 1e9;
      long requests = r1 - r0;
      System.out.println("== " + title);
      System.out.printf(
          "   %d streams, prompt ~%d tokens, max_tokens %d, measured %.1f s after %d s warm-up%n",
          o.concurrency(),
          o.inputWords() + o.inputWords() / 10 + 8,
          o.maxTokens(),
          secs,
          o.warmup());
      System.out.printf(
          "   requests done: %s, content chunks/s: %.0f, errors: %d, running %d / waiting %d, GC %d ms%n",
          o.clientProcess()
              ? "(child JVM)"
              : requests + " (" + String.format("%.1f/s", requests / secs) + ")",
          l.count() / secs,
          c.errors.get(),
          sim.runningRequests(),
          sim.waitingRequests(),
          gc1 - gc0);
      System.out.printf(
          "   send lateness: p50 %.1f ms, p99 %.1f ms, max %.2f ms (%d tokens)%n",
          l.p50Ms(), l.p99Ms(), l.maxMs(), l.count());
      System.out.printf(
          "   CPU of this JVM (%s): %.2f cores, %.1f us per content chunk%n",
          o.clientProcess() ? "simulator" : "simulator and client",
          (cpu1 - cpu0) / (double) (t1 - t0),
          (cpu1 - cpu0) / 1e3 / Math.max(1, l.count()));
      if (o.outliers()) {
        // grouped by step (same scheduled end): a late step shows as many tokens at once
        System.out.printf(
            "   tokens over 2 ms late: %d; steps with such tokens (first 4096 tokens), "
                + "s into the run of the step's end: tokens, max late ms:%n",
            outliers.length / 2);
        StringBuilder sb = new StringBuilder("  ");
        long step = Long.MIN_VALUE;
        int n = 0, groups = 0;
        long worst = 0;
        for (int i = 0; i <= outliers.length; i += 2) {
          long end =
              i < outliers.length ? (outliers[i] - outliers[i + 1]) / 200_000 : Long.MAX_VALUE;
          if (end != step) {
            if (n > 0 && groups++ < 200) {
              sb.append(
                  String.format(" %.3f:%d,%.1f", (step * 200_000 - t0) / 1e9, n, worst / 1e6));
            }
            step = end;
            n = 0;
            worst = 0;
          }
          if (i < outliers.length) {
            n++;
            worst = Math.max(worst, outliers[i + 1]);
          }
        }
        System.out.println(sb + (groups > 200 ? " ... (" + groups + " steps)" : ""));
      }
    } finally {
      if (child != null) {
        child.destroy();
        child.waitFor(5, TimeUnit.SECONDS);
        child.destroyForcibly();
      }
      if (group != null) {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      }
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
