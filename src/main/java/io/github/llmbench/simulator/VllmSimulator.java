package io.github.llmbench.simulator;

import io.github.llmbench.catalog.ModelSpec;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * An in-process stand-in for a vLLM OpenAI-compatible server: same endpoints and wire format,
 * token timing from a roofline model of the configured model and GPU, no GPU needed.
 *
 * <pre>{@code
 * try (VllmSimulator sim = VllmSimulator.start(SimulatorConfig.defaults())) {
 *   String url = sim.baseUrl(); // http://127.0.0.1:<port>
 * }
 * }</pre>
 */
public final class VllmSimulator implements AutoCloseable {

  /** Event-loop threads for HTTP; two keep up with 512 streams on a 2-core machine. */
  private static final int IO_THREADS = 2;

  private final SimulatorConfig config;
  private final ModelSpec model;
  private final String servedModelName;
  private final StubTokenizer tokenizer;
  private final LatenessHistogram lateness = new LatenessHistogram();
  private final Engine engine;
  private final EventLoopGroup group;
  private final Channel serverChannel;
  private final int port;

  private VllmSimulator(SimulatorConfig config) throws InterruptedException {
    config.validate();
    this.config = config;
    this.model = config.modelSpec();
    this.servedModelName = config.effectiveServedModelName();
    this.tokenizer = new StubTokenizer(model.vocabSize());
    this.engine = new Engine(new CostModel(model, config.gpuSpec(), config.tp(), config.gpuMemoryUtilization(),
        io.github.llmbench.catalog.EngineCalibration.DEFAULT), config.maxNumSeqs(), config.maxNumBatchedTokens(), lateness);
    // Native epoll when present (Linux; the jars come with Gatling), else NIO: epoll's writes are
    // cheaper, which matters with hundreds of one-token flushes per step.
    boolean epoll = Epoll.isAvailable();
    this.group = new MultiThreadIoEventLoopGroup(IO_THREADS, new DefaultThreadFactory("vllm-sim-io", true),
        epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    Channel ch;
    try {
      ServerBootstrap b = new ServerBootstrap()
          .group(group)
          .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
          .option(ChannelOption.SO_BACKLOG, 1024)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel c) {
              c.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(64 << 20),
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
    try {
      return new VllmSimulator(config);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the simulator", e);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot listen on 127.0.0.1:" + config.port() + ": " + e.getMessage(), e);
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

  public SimulatorConfig config() {
    return config;
  }

  /** Send lateness of streamed tokens since start (or the last {@link #resetLateness()}). */
  public Lateness lateness() {
    return lateness.snapshot();
  }

  public void resetLateness() {
    lateness.reset();
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

  /** Engine steps executed so far. */
  public long steps() {
    return engine.steps();
  }

  @Override
  public void close() {
    engine.stop();
    serverChannel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }

  // --- for the handler ---
  ModelSpec modelSpec() {
    return model;
  }

  StubTokenizer tokenizer() {
    return tokenizer;
  }

  Engine engine() {
    return engine;
  }
}
