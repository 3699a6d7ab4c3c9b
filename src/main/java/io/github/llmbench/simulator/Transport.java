package io.github.llmbench.simulator;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.util.Locale;

/**
 * Netty transport of the simulator (and its benchmark client), in order of preference: epoll
 * (Linux), io_uring (Linux 5.14+, where seccomp allows it), NIO. The native jars come with Gatling.
 * {@link #parse} names one for the benchmark and {@code VllmSimulatorMain --transport}; an
 * unavailable one falls back to the best available.
 *
 * <p>io_uring is not the default: measured with {@code SimulatorBenchmark} (the simulator's README,
 * Benchmark) it costs as much CPU per token as epoll and does not lower the p99 or maximum send
 * lateness, and as its loop submits a batch's writes together after the batch, its tokens complete
 * together: p50 1.2-1.6 ms against 0.6-0.8 ms with epoll.
 */
enum Transport {
  EPOLL,
  IO_URING,
  NIO;

  /** The best transport available here. */
  static Transport preferred() {
    for (Transport t : values()) {
      if (t.available()) {
        return t;
      }
    }
    return NIO;
  }

  /** The transport named {@code name} if available here, else the best available one. */
  static Transport preferred(String name) {
    Transport t = parse(name);
    return t.available() ? t : preferred();
  }

  /** {@code io_uring}, {@code epoll} or {@code nio}. */
  static Transport parse(String name) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "io_uring", "iouring", "uring" -> IO_URING;
      case "epoll" -> EPOLL;
      case "nio" -> NIO;
      default ->
          throw new IllegalArgumentException(
              "transport '" + name + "': expected io_uring, epoll or nio");
    };
  }

  boolean available() {
    try {
      return switch (this) {
        case IO_URING -> IoUring.isAvailable();
        case EPOLL -> Epoll.isAvailable();
        case NIO -> true;
      };
    } catch (Throwable e) { // native jar or classes missing
      return false;
    }
  }

  IoHandlerFactory handlerFactory() {
    return switch (this) {
      case IO_URING -> IoUringIoHandler.newFactory();
      case EPOLL -> EpollIoHandler.newFactory();
      case NIO -> NioIoHandler.newFactory();
    };
  }

  Class<? extends ServerChannel> serverChannel() {
    return switch (this) {
      case IO_URING -> IoUringServerSocketChannel.class;
      case EPOLL -> EpollServerSocketChannel.class;
      case NIO -> NioServerSocketChannel.class;
    };
  }

  Class<? extends SocketChannel> socketChannel() {
    return switch (this) {
      case IO_URING -> IoUringSocketChannel.class;
      case EPOLL -> EpollSocketChannel.class;
      case NIO -> NioSocketChannel.class;
    };
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
