package io.github.llmbench.simulator;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.EngineCalibration;
import io.github.llmbench.catalog.ModelSpec;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An in-process stand-in for a vLLM OpenAI-compatible server: same endpoints and wire format, token
 * timing from a roofline model of the configured model and GPU, no GPU needed.
 *
 * <pre>{@code
 * try (VllmSimulator sim = VllmSimulator.start(SimulatorConfig.defaults())) {
 *   String url = sim.baseUrl(); // http://127.0.0.1:<port>
 * }
 * }</pre>
 */
public final class VllmSimulator implements AutoCloseable {

  /**
   * Event-loop threads for HTTP ({@code -Dsim.ioThreads}); two keep up with 512 streams on a 2-core
   * machine.
   */
  /** Event-loop threads: 2 measured best on 2 cores (1 thread: p99 send lateness 11 ms). */
  private static final int IO_THREADS = 2;

  private final SimulatorConfig config;
  private final ModelSpec model;
  private final String servedModelName;

  /** The names a request may give as its {@code model}: the served model's, then its adapters'. */
  private final List<String> acceptedModels;

  private final StubTokenizer tokenizer;
  private final LatenessHistogram lateness = new LatenessHistogram();
  private final Engine engine;

  /**
   * Parses and admits completion requests off the event loops: a burst of new requests (they end
   * and restart together in a closed loop) would otherwise delay the token writes scheduled on the
   * same loops.
   */
  private final ExecutorService admission =
      Executors.newSingleThreadExecutor(new DefaultThreadFactory("vllm-sim-api", true));

  private final EventLoopGroup group;
  private final Channel serverChannel;
  private final int port;
  private final Transport transport;

  private VllmSimulator(SimulatorConfig config, Transport transport) throws InterruptedException {
    config.validate();
    this.config = config;
    this.model = config.modelSpec();
    this.servedModelName = config.effectiveServedModelName();
    List<String> accepted = new ArrayList<>();
    accepted.add(servedModelName);
    accepted.addAll(config.loraModules());
    this.acceptedModels = List.copyOf(accepted);
    this.tokenizer = new StubTokenizer(model.vocabSize());
    SimServing serving = new SimServing(config.speculation(), config.kvTransferGbPerS());
    this.engine =
        new Engine(
            new CostModel(
                model,
                config.gpuSpec(),
                config.tp(),
                config.gpuMemoryUtilization(),
                EngineCalibration.DEFAULT),
            config.maxNumSeqs(),
            config.maxNumBatchedTokens(),
            lateness,
            new SimMetrics(serving),
            config.noise(),
            new SimPower(
                Catalog.power(config.gpuSpec().id()),
                config.tp(),
                config.gpuSpec().name(),
                System.nanoTime()),
            serving);
    // Native epoll when present (Linux; the jars come with Gatling), else io_uring, else NIO:
    // epoll's writes are cheaper than NIO's, which matters with hundreds of one-token flushes per
    // step; io_uring (one system call for a loop iteration's writes) measured no better
    // (Transport).
    this.transport = transport;
    this.group =
        new MultiThreadIoEventLoopGroup(
            IO_THREADS, new DefaultThreadFactory("vllm-sim-io", true), transport.handlerFactory());
    Channel ch;
    try {
      ServerBootstrap b =
          new ServerBootstrap()
              .group(group)
              .channel(transport.serverChannel())
              .option(ChannelOption.SO_BACKLOG, 1024)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                      c.pipeline()
                          .addLast(
                              new HttpServerCodec(),
                              new HttpObjectAggregator(64 << 20),
                              new ApiHandler(VllmSimulator.this));
                    }
                  });
      // 127.0.0.1 only: the simulator is never reachable from other machines.
      ch = b.bind(new InetSocketAddress("127.0.0.1", config.port())).sync().channel();
    } catch (RuntimeException | InterruptedException e) {
      group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      throw e;
    }
    this.serverChannel = ch;
    this.port = ((InetSocketAddress) ch.localAddress()).getPort();
    engine.start("vllm-sim-engine-" + port);
  }

  /**
   * Starts a simulator and returns once it listens on 127.0.0.1.
   *
   * @throws IllegalArgumentException for an invalid config (unknown model or GPU, bad values)
   * @throws IllegalStateException if the port cannot be bound
   */
  public static VllmSimulator start(SimulatorConfig config) {
    return start(config, Transport.preferred());
  }

  /** Starts a simulator on the given transport (tests: each transport serves the same bytes). */
  static VllmSimulator start(SimulatorConfig config, Transport transport) {
    try {
      return new VllmSimulator(config, transport);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the simulator", e);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "cannot listen on 127.0.0.1:" + config.port() + ": " + e.getMessage(), e);
    }
  }

  public int port() {
    return port;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  public String servedModelName() {
    return servedModelName;
  }

  /** The names a request may give as its {@code model}: the served model's, then its adapters'. */
  public List<String> acceptedModels() {
    return acceptedModels;
  }

  /**
   * A generation request the simulator admitted: its {@code x-request-id} header (null without
   * one), the {@code model} it named (null without one), the images it carried and a digest of its
   * prompt's token ids (two requests of the same prompt have the same; 0 when not known).
   */
  public record Received(
      String requestId, String model, List<ReceivedImage> images, int promptDigest) {
    public Received {
      images = List.copyOf(images);
    }
  }

  /** The most admitted requests kept in {@link #received()}: a long run's log stays bounded. */
  static final int MAX_RECEIVED = 1_000_000;

  private final Queue<Received> received = new ConcurrentLinkedQueue<>();

  // a count of its own: the queue's size() walks it
  private final AtomicInteger receivedCount = new AtomicInteger();

  /** Notes an admitted generation request, for tests to see what reached the server. */
  void received(String requestId, String model) {
    received(requestId, model, List.of(), 0);
  }

  void received(String requestId, String model, List<ReceivedImage> images, int promptDigest) {
    Received r = new Received(requestId, model, images, promptDigest);
    if (receivedCount.getAndIncrement() < MAX_RECEIVED) {
      received.add(r);
    }
    Consumer<Received> listener = onReceived;
    if (listener != null) {
      listener.accept(r);
    }
  }

  /** Told of each admitted generation request as it is admitted, unbounded; none: null. */
  private volatile Consumer<Received> onReceived;

  /**
   * Tells {@code listener} of each generation request as it is admitted (the server process's
   * {@code --log-requests}); it runs on the event loop, so it must be quick.
   */
  public void onReceived(Consumer<Received> listener) {
    this.onReceived = listener;
  }

  /** Every generation request admitted so far, in order. */
  public List<Received> received() {
    return List.copyOf(received);
  }

  public SimulatorConfig config() {
    return config;
  }

  /** The Netty transport serving HTTP: io_uring, epoll or nio. */
  public String transport() {
    return transport.toString();
  }

  /** Send lateness of streamed tokens since start (or the last {@link #resetLateness()}). */
  public Lateness lateness() {
    return lateness.snapshot();
  }

  /**
   * Tokens over 2 ms late since the last reset: (nanoTime, lateness ns) pairs; for the benchmark.
   */
  long[] latenessOutliers() {
    return lateness.outliers();
  }

  public void resetLateness() {
    lateness.reset();
  }

  /** Whether the profiler runs: between a {@code /start_profile} and a {@code /stop_profile}. */
  private volatile boolean profiling;

  public boolean profiling() {
    return profiling;
  }

  void profiling(boolean on) {
    profiling = on;
  }

  /**
   * For each prefix-cache reset done ({@code /reset_prefix_cache}, SGLang's {@code /flush_cache}),
   * how many completion requests had reached the engine before it.
   */
  public List<Long> prefixCacheResets() {
    return engine.prefixCacheResets();
  }

  /** Empties the prefix cache; completes with whether it was done (not while requests run). */
  CompletableFuture<Boolean> resetPrefixCache() {
    return engine.resetPrefixCache();
  }

  /** Requests in the engine's running batch (prefilling or decoding), as of the last step. */
  public int runningRequests() {
    return engine.runningCount();
  }

  /** Requests queued for admission, as of the last step. */
  public int waitingRequests() {
    return engine.waitingCount();
  }

  /** The engine's Prometheus metrics (served at {@code GET /metrics}). */
  SimMetrics metrics() {
    return engine.metrics();
  }

  /** The GPUs' simulated power draw and energy (DCGM's names). */
  SimPower power() {
    return engine.power();
  }

  /** Engine steps executed so far. */
  public long steps() {
    return engine.steps();
  }

  @Override
  public void close() {
    engine.stop();
    serverChannel.close().syncUninterruptibly();
    admission.shutdownNow();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }

  // --- for the handler ---
  ModelSpec modelSpec() {
    return model;
  }

  StubTokenizer tokenizer() {
    return tokenizer;
  }

  Executor admission() {
    return admission;
  }

  Engine engine() {
    return engine;
  }
}
