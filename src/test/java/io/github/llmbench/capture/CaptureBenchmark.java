package io.github.llmbench.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.analysis.ClientHealth;
import io.github.llmbench.analysis.Percentiles;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.PacedServer;
import io.github.llmbench.testing.PacedServer.StreamRecord;
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
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.NodeList;

/**
 * How many streamed chunks per second the kit's capture takes on one core, and how exactly it times
 * them: the kit (the Gatling simulation, as {@code mvn gatling:test} runs it) loads a {@link
 * PacedServer}, whose send time of every chunk is known to the nanosecond, one closed-model level
 * after the other.
 *
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.llmbench.capture.CaptureBenchmark \
 *   -Dexec.args="--levels 64,256,512,1024,2048 --ttft-ms 10 --itl-ms 10 --chunks 128 --duration 40 --window 15-40"
 * </pre>
 *
 * <p>The server runs in its own JVM pinned to core 1 (with this JVM, idle while a level runs), the
 * client JVM of each level pinned to core 0, so each has exactly one core ({@code --pin false}
 * leaves both to the scheduler). Per level it prints one markdown row: chunks/s the client received
 * in the window against the ideal {@code C x chunks / (TTFT + (chunks - 1) x ITL)}; the client's
 * and the server's CPU over the window ({@code /proc/<pid>/stat}, every thread: event loops, GC,
 * JIT); the client's timing error against the server's send times, per request matched through
 * {@code x-request-id} = the record's {@code id}: ITL error = {@code itl_ms[i]} - the server's send
 * gap of the same two chunks, TTFT error = {@code ttft_ms} - (first content send - receive); the
 * server's own lateness (send - due). The window ({@code --window 15-40}) counts from the first
 * request the server received at that level, so JIT warm-up and the start burst stay out.
 *
 * <p>Options (defaults): {@code --levels 64,256,512,1024,2048 --ttft-ms 10 --itl-ms 10 (fractional
 * allowed) --chunks 128 --duration 40 --window 15-40 --pin true --server-warmup 15 (s of load by
 * the lean client before the first level, 0: none) --server-threads 1 --input-len 32 --client
 * gatling}, {@code --client-jvm FLAG} (repeatable: a JVM flag added after the pom's, e.g. for a
 * profiler agent); {@code --client raw} replaces the kit with a lean Netty client that only reads
 * the bytes ({@link RawClient}): what the server sustains alone. Extra {@code -Dkey=value}
 * arguments go to the kit. A bad argument ends the run with one line naming it. Everything is
 * written under {@code target/capture-bench/<time>/}, the table also as {@code capture-bench.md}.
 * The client and the server are stopped on exit, on errors and on Ctrl-C; the server also stops
 * when this JVM dies (its standard input closes), and an orphaned client ends with its level.
 */
public final class CaptureBenchmark {

  static final String SIMULATION = "io.github.llmbench.simulations.ServingBenchmarkSimulation";
  static final String EXEC_COMMAND =
      "mvn -q test-compile exec:java -Dexec.classpathScope=test "
          + "-Dexec.mainClass="
          + CaptureBenchmark.class.getName();

  /**
   * What the gatling-maven-plugin puts before the pom's jvmArgs (its GatlingConstants
   * .DEFAULT_JVM_OPTIONS_GATLING, less -Xmx1G, overridden by the pom, and
   * -XX:+HeapDumpOnOutOfMemoryError, which only matters once the run is lost anyway).
   */
  static final List<String> PLUGIN_JVM_DEFAULTS =
      List.of("-server", "-XX:MaxInlineLevel=20", "-XX:MaxTrivialSize=12");

  /** The pom's jvmArgs for the Gatling plugin, if the pom cannot be read. */
  static final List<String> POM_JVM_ARGS_FALLBACK = List.of("-Xms2g", "-Xmx2g", "-XX:+UseZGC");

  /** As GatlingProcess and surefire: Gatling's log writer needs java.lang opened. */
  static final String ADD_OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";

  /**
   * The server's heap holds one level's recordings (2048 streams x 128 chunks x 8 bytes per 1.28 s,
   * about 65 MB for 40 s) until they are taken; ZGC keeps its pauses, which would show as lateness,
   * under a millisecond.
   */
  static final List<String> SERVER_JVM_ARGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseZGC");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  // ---------------------------------------------------------------------------------------------
  // options

  /** A bad argument: its message is the one line printed. */
  static final class BadOption extends RuntimeException {
    BadOption(String option, String value, String accepted) {
      super(
          "invalid "
              + option
              + " "
              + (value.isEmpty() ? "(no value)" : "'" + value + "'")
              + ": expected "
              + accepted,
          null,
          false,
          false);
    }
  }

  /**
   * @param kitProperties extra {@code -Dkey=value} arguments for the kit, as given
   * @param client {@code gatling} (the kit) or {@code raw} (the server alone)
   */
  record Options(
      List<Integer> levels,
      double ttftMs,
      double itlMs,
      int chunks,
      int durationS,
      int windowFromS,
      int windowToS,
      boolean pin,
      String client,
      int serverThreads,
      int inputLen,
      int serverWarmupS,
      List<String> kitProperties,
      List<String> clientJvmExtra,
      List<String> args) {

    static Options parse(String[] args) {
      List<Integer> levels = List.of(64, 256, 512, 1024, 2048);
      double ttftMs = 10;
      double itlMs = 10;
      int chunks = 128;
      int duration = 40;
      String window = "15-40";
      boolean pin = true;
      String client = "gatling";
      int serverThreads = 1;
      int inputLen = 32;
      int serverWarmup = 15;
      List<String> kit = new ArrayList<>();
      List<String> clientJvmExtra = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.startsWith("-D")) {
          if (a.length() < 3 || a.indexOf('=') < 3) {
            throw new BadOption("kit property", a, "-Dkey=value");
          }
          kit.add(a);
          continue;
        }
        String v = i + 1 < args.length ? args[++i] : "";
        switch (a) {
          case "--levels" -> levels = levels(v);
          case "--ttft-ms" ->
              ttftMs = number(a, v, 0, "a number of milliseconds >= 0, e.g. 10 or 12.5");
          case "--itl-ms" -> {
            itlMs = number(a, v, 0, "a number of milliseconds > 0, e.g. 10 or 7.3");
            if (itlMs == 0) {
              throw new BadOption(a, v, "a number of milliseconds > 0, e.g. 10 or 7.3");
            }
          }
          case "--chunks" ->
              chunks =
                  integer(
                      a, v, 2, 100_000, "an integer from 2 to 100000 (content chunks per stream)");
          case "--duration" ->
              duration = integer(a, v, 1, 86_400, "whole seconds per level, 1 to 86400");
          case "--window" -> window = v;
          case "--pin" -> {
            if (!v.equals("true") && !v.equals("false")) {
              throw new BadOption(a, v, "true or false");
            }
            pin = v.equals("true");
          }
          case "--client" -> {
            if (!v.equals("gatling") && !v.equals("raw")) {
              throw new BadOption(
                  a, v, "gatling (the kit) or raw (a lean client: the server alone)");
            }
            client = v;
          }
          case "--server-threads" ->
              serverThreads = integer(a, v, 1, 64, "an integer from 1 to 64 (event loops)");
          case "--input-len" ->
              inputLen = integer(a, v, 1, 100_000, "an integer from 1 to 100000 (prompt tokens)");
          case "--client-jvm" -> {
            for (String flag : v.trim().split("\\s+")) {
              if (!flag.startsWith("-")) {
                throw new BadOption(
                    "--client-jvm",
                    v,
                    "JVM flags separated by spaces, e.g. \"-XX:CICompilerCount=2 -Xss512k\"");
              }
              clientJvmExtra.add(flag);
            }
          }
          case "--server-warmup" ->
              serverWarmup = integer(a, v, 0, 3600, "whole seconds from 0 (none) to 3600");
          default ->
              throw new BadOption(
                  "option",
                  a,
                  "--levels, --ttft-ms, --itl-ms, --chunks, --duration, --window, "
                      + "--pin, --client, --client-jvm, --server-threads, --input-len, --server-warmup or -Dkey=value for the kit");
        }
      }
      String[] w = window.split("-", -1);
      String windowAccepted =
          "FROM-TO, whole seconds after a level's first request, 0 <= FROM < TO <= --duration ("
              + duration
              + "), e.g. 15-40";
      if (w.length != 2) {
        throw new BadOption("--window", window, windowAccepted);
      }
      int from;
      int to;
      try {
        from = Integer.parseInt(w[0].trim());
        to = Integer.parseInt(w[1].trim());
      } catch (NumberFormatException e) {
        throw new BadOption("--window", window, windowAccepted);
      }
      if (from < 0 || from >= to || to > duration) {
        throw new BadOption("--window", window, windowAccepted);
      }
      return new Options(
          levels,
          ttftMs,
          itlMs,
          chunks,
          duration,
          from,
          to,
          pin,
          client,
          serverThreads,
          inputLen,
          serverWarmup,
          List.copyOf(kit),
          List.copyOf(clientJvmExtra),
          List.of(args));
    }

    private static List<Integer> levels(String v) {
      String accepted =
          "a comma-separated list of concurrencies from 1 to 100000, e.g. 64,256,1024";
      List<Integer> out = new ArrayList<>();
      for (String s : v.split(",", -1)) {
        try {
          int c = Integer.parseInt(s.trim());
          if (c < 1 || c > 100_000) {
            throw new BadOption("--levels", v, accepted);
          }
          out.add(c);
        } catch (NumberFormatException e) {
          throw new BadOption("--levels", v, accepted);
        }
      }
      return List.copyOf(out);
    }

    private static double number(String option, String v, double min, String accepted) {
      try {
        double d = Double.parseDouble(v);
        if (!Double.isFinite(d) || d < min || d > 3_600_000) {
          throw new BadOption(option, v, accepted);
        }
        return d;
      } catch (NumberFormatException e) {
        throw new BadOption(option, v, accepted);
      }
    }

    private static int integer(String option, String v, int min, int max, String accepted) {
      try {
        int n = Integer.parseInt(v);
        if (n < min || n > max) {
          throw new BadOption(option, v, accepted);
        }
        return n;
      } catch (NumberFormatException e) {
        throw new BadOption(option, v, accepted);
      }
    }

    /** Chunks per second at this concurrency with no client overhead: C x chunks / stream time. */
    double idealChunksPerSecond(int conc) {
      return conc * chunks / ((ttftMs + (chunks - 1) * itlMs) / 1000.0);
    }

    boolean raw() {
      return client.equals("raw");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // main

  public static void main(String[] args) throws Exception {
    Options options;
    try {
      options = Options.parse(args);
    } catch (BadOption e) {
      System.err.println("capture-bench: " + e.getMessage());
      System.exit(2);
      return;
    }
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    CaptureBenchmark bench = new CaptureBenchmark(options);
    Thread cleanup = new Thread(bench::stopChildren, "capture-bench-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      bench.run();
    } finally {
      bench.stopChildren();
    }
  }

  private final Options o;
  private final PrintStream out = System.out;
  private final Path runDir;
  private final StringBuilder markdown = new StringBuilder();
  private final List<String> levelNotes = new ArrayList<>();
  private final long clockTicksPerSecond = clockTicks();
  private volatile Process server;
  private volatile Process client;

  /** The server's standard output, line by line ("exited" once it closed). */
  private BlockingQueue<String> serverLines;

  private int port;
  private String serverInfo = "";

  private CaptureBenchmark(Options o) {
    this.o = o;
    this.runDir = Path.of("target", "capture-bench", ZonedDateTime.now().format(STAMP));
  }

  /** Kills the client and stops the server: at the end, on errors and on Ctrl-C (shutdown hook). */
  private void stopChildren() {
    for (Process p : new Process[] {client, server}) {
      if (p != null && p.isAlive()) {
        p.destroy();
        try {
          if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
          }
        } catch (InterruptedException e) {
          p.destroyForcibly();
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private void run() throws Exception {
    Files.createDirectories(runDir);
    int cores = Runtime.getRuntime().availableProcessors(); // before this JVM is pinned to one
    boolean canPin = o.pin() && cores >= 2 && onPath("taskset");
    String pinning;
    if (canPin) {
      pinning = "server (and this JVM) pinned to core 1, each level's client to core 0";
    } else if (!o.pin()) {
      pinning = "NOT pinned (--pin false): server and client share all cores";
    } else {
      pinning =
          "NOT pinned: "
              + (cores < 2 ? cores + " core(s) available, 2 needed" : "no taskset on the PATH")
              + "; server and client share the cores";
    }
    String cp = classPath();
    List<String> clientJvm = clientJvmArgs();
    clientJvm.addAll(
        o.clientJvmExtra()); // after the pom's: on the JVM's command line the last one wins
    String date = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    List<String> header = new ArrayList<>();
    header.add("capture-bench " + date);
    header.add("machine: nproc " + cores + ", " + cpuModel() + ", Linux " + kernel());
    header.add(
        "JVM: "
            + System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version")
            + " ("
            + javaBin()
            + ", for this JVM, the server's and the client's)");
    header.add("command: " + EXEC_COMMAND + " -Dexec.args=\"" + String.join(" ", o.args()) + "\"");
    header.add(
        String.format(
            Locale.ROOT,
            "pacing: TTFT %s ms, ITL %s ms, %d content chunks per stream (%.1f ms a stream);"
                + " %d s per level, window %d-%d s after the level's first request",
            num(o.ttftMs()),
            num(o.itlMs()),
            o.chunks(),
            o.ttftMs() + (o.chunks() - 1) * o.itlMs(),
            o.durationS(),
            o.windowFromS(),
            o.windowToS()));
    header.add("pinning: " + pinning);
    header.add(
        o.raw()
            ? "client: RawClient (lean Netty, reads bytes only; chunks/s are the server's sends in the window)"
            : "client: the kit, "
                + SIMULATION
                + " (io.gatling.app.Gatling), JVM flags "
                + String.join(" ", clientJvm)
                + ", -Dinput.len="
                + o.inputLen()
                + " -Doutput.len="
                + o.chunks()
                + (o.kitProperties().isEmpty() ? "" : " " + String.join(" ", o.kitProperties())));
    header.add("results: " + runDir);
    for (String h : header) {
      say(h);
    }

    startServer(cp, canPin);
    if (canPin) {
      String pinned =
          exec(
              List.of(
                  "taskset", "-a", "-p", "-c", "1", String.valueOf(ProcessHandle.current().pid())));
      if (pinned == null) {
        say("note: could not pin this JVM to core 1; the server still is");
      }
    }
    say("server: " + serverInfo + ", JVM flags " + String.join(" ", SERVER_JVM_ARGS));
    if (o.serverWarmupS() > 0) {
      warmUpServer(cp, canPin);
    }
    out.println();
    markdown.append('\n');

    String head =
        "| C | load avg before | chunks/s received | ideal | % of ideal | client CPU % | client µs/chunk "
            + "| server CPU % | server µs/chunk | cores busy % (0/1) | ITL err p50 ms | ITL err p99 ms | ITL err p99.9 ms | TTFT err p50 ms "
            + "| TTFT err p99 ms | server late p99 ms | failed | matched | unmatched | bound by "
            + "| kit's client verdict | kit's loop lag p99 ms |";
    String rule =
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|";
    out.println(head);
    out.println(rule);
    out.flush();
    markdown.append(head).append('\n').append(rule).append('\n');
    for (int conc : o.levels()) {
      String row;
      try {
        row = level(conc, cp, clientJvm, canPin);
      } catch (LevelFailed e) {
        row =
            String.format(
                Locale.ROOT, "| %d | %s | level failed: %s |", conc, e.load, e.getMessage());
      }
      out.println(row);
      out.flush();
      markdown.append(row).append('\n');
      writeMarkdown();
    }
    out.println();
    markdown.append('\n');
    for (String n : levelNotes) {
      out.println(n);
      markdown.append("- ").append(n).append('\n');
    }
    String legend =
        "ITL err = client itl_ms[i] - server send gap of the same two chunks (chunks sent in the window);"
            + " TTFT err = client ttft_ms - (server first content send - server receive); server late = send - due;"
            + " CPU % of one core over the window, all threads (utime+stime); on loopback the kernel's TCP receive"
            + " processing runs in the sender's send call, so it counts in the server's CPU, not the client's;"
            + " unmatched = client records without a server stream of the same id and chunk count, plus server streams"
            + " without a client record; cores busy = each core's busy time over the window, whatever ran there (client"
            + " on core 0, server on core 1 when pinned, other processes, the kernel's softirq threads); bound by: server"
            + " late when its lateness p99 exceeds an ITL (its schedule slipped: the row then measures the server as much"
            + " as the client), client CPU at 90% of its core or more; kit's client verdict and loop lag: what the kit's"
            + " own probe said of the level (llm/summary.json, levels.<c>.client, over its steady window).";
    out.println(legend);
    markdown.append('\n').append(legend).append('\n');
    writeMarkdown();
    out.println("table: " + runDir.resolve("capture-bench.md"));
    send("quit");
    server.waitFor(10, TimeUnit.SECONDS);
  }

  /**
   * The server's JIT compiles for tens of seconds on its one core, competing with its event loop: a
   * lean client loads it first (not measured), so the first level's window does not hold that.
   */
  private void warmUpServer(String cp, boolean pin) throws Exception {
    int conc = o.levels().get(0);
    List<String> cmd = new ArrayList<>();
    if (pin) {
      cmd.addAll(List.of("taskset", "-c", "0"));
    }
    cmd.add(javaBin());
    cmd.addAll(rawClientArgs(cp, conc, o.serverWarmupS()));
    client =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(runDir.resolve("server-warmup.log").toFile())
            .start();
    if (!client.waitFor(o.serverWarmupS() + 90L, TimeUnit.SECONDS)) {
      client.destroyForcibly().waitFor();
    }
    client = null;
    send("take /dev/null");
    String took = await("took", 60);
    String line =
        "server warm-up: "
            + o.serverWarmupS()
            + " s at C="
            + conc
            + " with the raw client, not measured ("
            + (took == null ? "no answer" : took.split(" ")[2] + " chunks")
            + ")";
    say(line);
  }

  /** A line of the header: printed, and in the markdown file (a line break of its own). */
  private void say(String line) {
    out.println(line);
    out.flush();
    markdown.append(line).append("  \n");
  }

  private List<String> rawClientArgs(String cp, int conc, int seconds) {
    return List.of(
        "-Xms512m",
        "-Xmx512m",
        "-cp",
        cp,
        RawClient.class.getName(),
        String.valueOf(port),
        String.valueOf(conc),
        String.valueOf(o.chunks()),
        String.valueOf(seconds),
        String.valueOf(o.inputLen()));
  }

  private void writeMarkdown() throws IOException {
    Files.writeString(
        runDir.resolve("capture-bench.md"), markdown.toString(), StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------------------------------------
  // the server

  private void startServer(String cp, boolean pin) throws Exception {
    List<String> cmd = new ArrayList<>();
    if (pin) {
      cmd.addAll(List.of("taskset", "-c", "1"));
    }
    cmd.add(javaBin());
    cmd.addAll(SERVER_JVM_ARGS);
    cmd.addAll(
        List.of(
            "-cp",
            cp,
            PacedServer.class.getName(),
            "--ttft-ms",
            num(o.ttftMs()),
            "--itl-ms",
            num(o.itlMs()),
            "--chunk-cap",
            String.valueOf(o.chunks()),
            "--threads",
            String.valueOf(o.serverThreads()),
            // bounded even if this JVM were killed without its hooks (its stdin closing stops it
            // first)
            "--max-seconds",
            String.valueOf(o.levels().size() * (o.durationS() + 600L) + 300)));
    server = new ProcessBuilder(cmd).redirectError(runDir.resolve("server.err").toFile()).start();
    serverLines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  serverLines.add(line);
                }
              } catch (IOException e) {
                // the server is gone: waits on its lines time out and say so
              }
              serverLines.add("exited");
            },
            "paced-server-out");
    reader.setDaemon(true);
    reader.start();
    String listening = await("listening", 60);
    String[] f = listening.split(" ");
    port = Integer.parseInt(f[1]);
    serverInfo =
        "PacedServer pid "
            + server.pid()
            + " on 127.0.0.1:"
            + port
            + ", "
            + f[2]
            + ", "
            + f[3]
            + " event loop(s)";
  }

  private void send(String command) throws IOException {
    var in = server.getOutputStream();
    in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /**
   * The server's counters since its start: chunks sent, ticks, watchdog kicks; null if no answer.
   */
  private long[] serverCounters() throws IOException, InterruptedException {
    send("sent");
    String line = await("sent", 10);
    if (line == null) {
      return null;
    }
    String[] f = line.split(" ");
    return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])};
  }

  /** The server's next line starting with {@code prefix}, within {@code seconds}. */
  private String await(String prefix, long seconds) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      long left = end - System.nanoTime();
      String line = left > 0 ? serverLines.poll(left, TimeUnit.NANOSECONDS) : null;
      if (line == null) {
        return null;
      }
      if (line.startsWith(prefix + " ") || line.equals(prefix)) {
        return line;
      }
      if (line.equals("exited")) {
        throw new IllegalStateException(
            "the paced server exited; see " + runDir.resolve("server.err"));
      }
      out.println("server: " + line);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // one level

  static final class LevelFailed extends Exception {
    final String load;

    LevelFailed(String message, String load) {
      super(message, null, false, false);
      this.load = load;
    }
  }

  /**
   * CPU readings at a window's edge: the two processes' own time and each core's ticks, whatever
   * ran there (other processes, the kernel's softirq threads), from /proc/stat.
   */
  private record CpuSample(long nanos, long clientTicks, long serverTicks, long[][] cores) {
    static CpuSample now(long clientPid, long serverPid) {
      return new CpuSample(
          System.nanoTime(), cpuTicks(clientPid), cpuTicks(serverPid), coreTicks());
    }

    /** Busy % of core {@code i} from {@code start} to this sample ("n/a" without /proc/stat). */
    String coreBusy(CpuSample start, int i) {
      if (cores == null || start.cores == null || i >= cores.length || i >= start.cores.length) {
        return "n/a";
      }
      long busy = cores[i][0] - start.cores[i][0];
      long total = cores[i][1] - start.cores[i][1];
      return total <= 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", 100.0 * busy / total);
    }
  }

  /** Per core: {busy, total} ticks (busy: all but idle and iowait); null when unreadable. */
  static long[][] coreTicks() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/stat"))) {
      return lines
          .filter(l -> l.matches("cpu\\d+ .*"))
          .map(
              l -> {
                String[] f = l.trim().split("\\s+");
                long total = 0;
                for (int i = 1;
                    i < Math.min(f.length, 9);
                    i++) { // user .. steal; guest time is within user
                  total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                return new long[] {total - idle, total};
              })
          .toArray(long[][]::new);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private String level(int conc, String cp, List<String> clientJvm, boolean pin) throws Exception {
    Path dir = runDir.resolve("c" + conc);
    Files.createDirectories(dir);
    String load = loadAverage();
    // Streams a failed level may have left on the server must not count in this one.
    send("take /dev/null");
    if (await("took", 60) == null) {
      throw new LevelFailed("the server did not answer 'take'", load);
    }
    double epochMinusNanosMs = epochMinusNanoTimeMs();
    send("arm");
    if (await("armed", 10) == null) {
      throw new LevelFailed("the server did not answer 'arm'", load);
    }
    List<String> cmd = new ArrayList<>();
    if (pin) {
      cmd.addAll(List.of("taskset", "-c", "0"));
    }
    cmd.add(javaBin());
    String baseUrl = "http://127.0.0.1:" + port;
    if (o.raw()) {
      cmd.addAll(rawClientArgs(cp, conc, o.durationS()));
    } else {
      cmd.addAll(clientJvm);
      cmd.addAll(
          List.of(
              "-Dbase.url=" + baseUrl,
              "-Dconc=" + conc,
              "-Dduration=" + o.durationS(),
              "-Dinput.len=" + o.inputLen(),
              "-Doutput.len=" + o.chunks()));
      cmd.addAll(o.kitProperties());
      cmd.addAll(
          List.of(
              "-cp",
              cp,
              "io.gatling.app.Gatling",
              "--simulation",
              SIMULATION,
              "--results-folder",
              dir.toAbsolutePath().toString()));
    }
    Files.writeString(
        dir.resolve("client-command.txt"), String.join(" ", cmd) + "\n", StandardCharsets.UTF_8);
    Path log = dir.resolve(o.raw() ? "raw-client.log" : "gatling.log");
    client = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long clientPid = client.pid();
    long serverPid = server.pid();

    // The window's origin: the server's receive time of the level's first completion request.
    String first = null;
    long firstDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (first == null && client.isAlive() && System.nanoTime() < firstDeadline) {
      first = await("first", 1);
    }
    if (first == null) {
      client.destroyForcibly().waitFor();
      throw new LevelFailed(
          "no request reached the server (client "
              + (client.isAlive() ? "running" : "exit " + client.exitValue())
              + "); see "
              + log
              + ": "
              + tail(log),
          load);
    }
    long originNanos = Long.parseLong(first.split(" ")[1]);
    long fromNanos = originNanos + TimeUnit.SECONDS.toNanos(o.windowFromS());
    long toNanos = originNanos + TimeUnit.SECONDS.toNanos(o.windowToS());
    sleepUntil(fromNanos);
    CpuSample start = CpuSample.now(clientPid, serverPid);
    long[] countersFrom = serverCounters();
    sleepUntil(toNanos);
    CpuSample end = CpuSample.now(clientPid, serverPid);
    long[] countersTo = serverCounters();

    boolean exited = client.waitFor(o.durationS() + 300L, TimeUnit.SECONDS);
    if (!exited) {
      client.destroyForcibly().waitFor();
    }
    int exitCode = client.exitValue();
    client = null;
    Path streamsFile = dir.resolve("server-streams.bin");
    send("take " + streamsFile.toAbsolutePath());
    String took = await("took", 120);
    if (took == null) {
      throw new LevelFailed("the server did not hand over its recordings", load);
    }
    List<StreamRecord> streams = PacedServer.readRecords(streamsFile);

    Analysis a = new Analysis(fromNanos, toNanos);
    a.server(streams);
    List<ClientRecord> records = List.of();
    String verdict = "n/a";
    String loopLag = "n/a";
    if (!o.raw()) {
      Path jsonl = findRequestsJsonl(dir);
      if (jsonl == null) {
        throw new LevelFailed(
            "no llm/requests.jsonl under " + dir + " (client exit " + exitCode + "): " + tail(log),
            load);
      }
      records = readClientRecords(jsonl);
      a.client(records, streams, epochMinusNanosMs);
      // what the kit itself said of its health at this level (its steady window, else the level)
      Path summary = jsonl.resolveSibling(RunFiles.SUMMARY);
      if (Files.isRegularFile(summary)) {
        LevelSummary level = Summary.read(summary).levels().get("c" + conc);
        if (level != null && level.client() != null) {
          ClientHealth.Window w = level.client().health().judged();
          verdict = level.client().verdict();
          loopLag = String.format(Locale.ROOT, "%.2f", w.lagP99Ms());
        }
      }
    }

    double windowS = (end.nanos() - start.nanos()) / 1e9;
    long chunks = o.raw() ? a.serverSentInWindow : a.clientReceivedInWindow;
    double perSecond = chunks / ((toNanos - fromNanos) / 1e9);
    double ideal = o.idealChunksPerSecond(conc);
    String clientCpu = "n/a";
    String clientUs = "n/a";
    if (start.clientTicks() >= 0 && end.clientTicks() >= 0) {
      double cpuS = (end.clientTicks() - start.clientTicks()) / (double) clockTicksPerSecond;
      clientCpu = String.format(Locale.ROOT, "%.0f", 100 * cpuS / windowS);
      clientUs = chunks == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", cpuS * 1e6 / chunks);
    }
    String serverCpu = "n/a";
    String serverUs = "n/a";
    if (start.serverTicks() >= 0 && end.serverTicks() >= 0) {
      double cpuS = (end.serverTicks() - start.serverTicks()) / (double) clockTicksPerSecond;
      serverCpu = String.format(Locale.ROOT, "%.0f", 100 * cpuS / windowS);
      serverUs =
          a.serverSentInWindow == 0
              ? "n/a"
              : String.format(Locale.ROOT, "%.1f", cpuS * 1e6 / a.serverSentInWindow);
    }
    // Which side kept the level from its ideal: a server that fell behind its schedule by more
    // than an ITL limits the rate itself, so the row does not measure the client.
    List<String> bounds = new ArrayList<>();
    if (a.lateness.size() > 0 && a.lateness.percentile(99) > o.itlMs()) {
      bounds.add("server late");
    }
    if (!clientCpu.equals("n/a") && Double.parseDouble(clientCpu) >= 90) {
      bounds.add("client CPU");
    }
    boolean haveClient = !o.raw();
    String row =
        String.format(
            Locale.ROOT,
            "| %d | %s | %.0f%s | %.0f | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
            conc,
            load,
            perSecond,
            o.raw() ? " (sent)" : "",
            ideal,
            100 * perSecond / ideal,
            clientCpu,
            clientUs,
            serverCpu,
            serverUs,
            end.coreBusy(start, 0) + "/" + end.coreBusy(start, 1),
            haveClient ? ms(a.itlErrors, 50) : "n/a",
            haveClient ? ms(a.itlErrors, 99) : "n/a",
            haveClient ? ms(a.itlErrors, 99.9) : "n/a",
            haveClient ? ms(a.ttftErrors, 50) : "n/a",
            haveClient ? ms(a.ttftErrors, 99) : "n/a",
            ms(a.lateness, 99),
            haveClient ? a.failed + " / " + records.size() : "n/a",
            haveClient ? String.valueOf(a.matched) : "n/a",
            haveClient ? String.valueOf(a.clientOnly + a.serverOnly + a.countMismatch) : "n/a",
            bounds.isEmpty() ? "-" : String.join(", ", bounds),
            verdict,
            loopLag);
    levelNotes.add(
        String.format(
            Locale.ROOT,
            "c%d: %d server streams (%d cancelled), %d chunks sent in the window, server lateness max %.2f ms,"
                + " %d chunk writes not taken by the socket at once, %s%s; client exit %d%s%s",
            conc,
            streams.size(),
            a.cancelled,
            a.serverSentInWindow,
            a.lateness.max(),
            a.queuedWrites,
            countersFrom == null || countersTo == null
                ? "server ticks n/a"
                : String.format(
                    Locale.ROOT,
                    "%.1f chunks per server tick, %d ticks started by the watchdog",
                    (countersTo[0] - countersFrom[0])
                        / (double) Math.max(1, countersTo[1] - countersFrom[1]),
                    countersTo[2] - countersFrom[2]),
            haveClient
                ? String.format(
                    Locale.ROOT,
                    "; %d ITL and %d TTFT errors; unmatched: %d client-only, %d server-only,"
                        + " %d chunk count differs",
                    a.itlErrors.size(),
                    a.ttftErrors.size(),
                    a.clientOnly,
                    a.serverOnly,
                    a.countMismatch)
                : "",
            exitCode,
            exited ? "" : " (killed after " + (o.durationS() + 300) + " s)",
            a.firstError == null ? "" : "; first failure: " + a.firstError));
    return row;
  }

  // ---------------------------------------------------------------------------------------------
  // analysis

  /** One line of requests.jsonl, the fields used here; times in ms (whole or fractional). */
  record ClientRecord(
      String id, boolean ok, double startMs, double ttftMs, double[] itlMs, String error) {}

  static List<ClientRecord> readClientRecords(Path jsonl) throws IOException {
    List<ClientRecord> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode n = JSON.readTree(line);
        JsonNode itl = n.path("itl_ms");
        double[] gaps = new double[itl.isArray() ? itl.size() : 0];
        for (int i = 0; i < gaps.length; i++) {
          gaps[i] = itl.get(i).asDouble();
        }
        JsonNode ttft = n.get("ttft_ms");
        out.add(
            new ClientRecord(
                n.path("id").asText(null),
                n.path("ok").asBoolean(false),
                n.path("start_ms").asDouble(),
                ttft == null || ttft.isNull() ? Double.NaN : ttft.asDouble(),
                gaps,
                n.hasNonNull("error") ? n.get("error").asText() : null));
      }
    }
    return out;
  }

  /** A growing array of doubles: millions of errors per level without boxing. */
  static final class Doubles {
    private double[] values = new double[1 << 16];
    private int size;
    private boolean sorted;

    void add(double v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
      sorted = false;
    }

    int size() {
      return size;
    }

    /** numpy-linear percentile (as the kit reports), 0 when empty. */
    double percentile(double p) {
      if (!sorted) {
        values = Arrays.copyOf(values, size);
        Arrays.sort(values);
        sorted = true;
      }
      return Percentiles.percentileOfSorted(values, p);
    }

    double max() {
      return size == 0 ? 0 : percentile(100);
    }
  }

  /** The figures of one level over the window [fromNanos, toNanos) of server nanoTime. */
  static final class Analysis {
    final long fromNanos;
    final long toNanos;
    final Doubles lateness = new Doubles();
    final Doubles itlErrors = new Doubles();
    final Doubles ttftErrors = new Doubles();
    long serverSentInWindow;
    long clientReceivedInWindow;
    long queuedWrites;
    int cancelled;
    int failed;
    int matched;
    int clientOnly;
    int serverOnly;
    int countMismatch;
    String firstError;

    Analysis(long fromNanos, long toNanos) {
      this.fromNanos = fromNanos;
      this.toNanos = toNanos;
    }

    boolean inWindow(long nanos) {
      return nanos >= fromNanos && nanos < toNanos;
    }

    void server(List<StreamRecord> streams) {
      for (StreamRecord s : streams) {
        long[] sent = s.sentNanos();
        for (int k = 0; k < sent.length; k++) {
          if (inWindow(sent[k])) {
            serverSentInWindow++;
            lateness.add((sent[k] - s.scheduledNanos(k)) / 1e6);
          }
        }
        queuedWrites += s.queuedWrites();
        cancelled += s.cancelled() ? 1 : 0;
      }
    }

    /**
     * Matches the client's records with the server's streams by id. Chunk arrivals are rebuilt as
     * {@code start_ms + ttft_ms + itl_ms[0] + ... } (epoch ms) and placed in the window through
     * {@code epochMinusNanosMs}, the offset between the wall clock and nanoTime.
     */
    void client(List<ClientRecord> records, List<StreamRecord> streams, double epochMinusNanosMs) {
      Map<String, StreamRecord> byId = new HashMap<>(streams.size() * 2);
      for (StreamRecord s : streams) {
        byId.put(s.id(), s);
      }
      double fromEpochMs = fromNanos / 1e6 + epochMinusNanosMs;
      double toEpochMs = toNanos / 1e6 + epochMinusNanosMs;
      int seen = 0;
      for (ClientRecord r : records) {
        StreamRecord s = r.id() == null ? null : byId.remove(r.id());
        if (!r.ok()) {
          failed++;
          if (firstError == null) {
            firstError = r.error();
          }
        }
        if (r.ok() && !Double.isNaN(r.ttftMs())) {
          double arrival = r.startMs() + r.ttftMs();
          clientReceivedInWindow += arrival >= fromEpochMs && arrival < toEpochMs ? 1 : 0;
          for (double gap : r.itlMs()) {
            arrival += gap;
            clientReceivedInWindow += arrival >= fromEpochMs && arrival < toEpochMs ? 1 : 0;
          }
        }
        if (s == null) {
          clientOnly++;
          continue;
        }
        seen++;
        long[] sent = s.sentNanos();
        if (!r.ok()) {
          matched++; // a failure the server saw too; it has no client timings to compare
          continue;
        }
        if (r.itlMs().length + 1 != sent.length) {
          countMismatch++;
          continue;
        }
        matched++;
        if (inWindow(sent[0])) {
          ttftErrors.add(r.ttftMs() - (sent[0] - s.receivedNanos()) / 1e6);
        }
        for (int i = 1; i < sent.length; i++) {
          if (inWindow(sent[i])) {
            itlErrors.add(r.itlMs()[i - 1] - (sent[i] - sent[i - 1]) / 1e6);
          }
        }
      }
      serverOnly = streams.size() - seen;
    }
  }

  private static String ms(Doubles d, double p) {
    if (d.size() == 0) {
      return "n/a";
    }
    double v = d.percentile(p);
    return String.format(Locale.ROOT, "%.2f", Math.abs(v) < 0.005 ? 0.0 : v); // no "-0.00"
  }

  // ---------------------------------------------------------------------------------------------
  // machine and processes

  /**
   * Wall clock minus nanoTime, in ms: places the client's epoch-ms records on the server's clock.
   * The reading with the shortest nanoTime bracket of five is kept.
   */
  static double epochMinusNanoTimeMs() {
    double best = 0;
    long bestBracket = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      long before = System.nanoTime();
      Instant now = Instant.now();
      long after = System.nanoTime();
      if (after - before < bestBracket) {
        bestBracket = after - before;
        double epochMs = now.getEpochSecond() * 1e3 + now.getNano() / 1e6;
        best = epochMs - (before + (after - before) / 2) / 1e6;
      }
    }
    return best;
  }

  private static void sleepUntil(long nanoTime) {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }

  /** utime + stime of a process, all its threads, in clock ticks; -1 when it cannot be read. */
  static long cpuTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      // the command name (2nd field) may hold spaces: count fields after its closing parenthesis
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of proc(5)
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static long clockTicks() {
    String t = exec(List.of("getconf", "CLK_TCK"));
    try {
      return t == null ? 100 : Long.parseLong(t.trim());
    } catch (NumberFormatException e) {
      return 100;
    }
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }

  private static String cpuModel() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown CPU");
    } catch (IOException | UncheckedIOException e) {
      return "unknown CPU";
    }
  }

  private static String kernel() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
    } catch (IOException e) {
      return System.getProperty("os.version");
    }
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  /** Runs a short command; its output, or null when it failed. */
  private static String exec(List<String> cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? text : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * The test class path: under {@code mvn exec:java} {@code java.class.path} is Maven's own, and
   * the project's classes come from the URLClassLoader exec:java built over the test scope.
   */
  static String classPath() {
    if (CaptureBenchmark.class.getClassLoader() instanceof URLClassLoader u
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

  /**
   * The client JVM's flags as {@code mvn gatling:test} gives them: the plugin's defaults, the pom's
   * {@code jvmArgs} of the gatling-maven-plugin (read from pom.xml, so they stay in step), and
   * java.lang opened.
   */
  static List<String> clientJvmArgs() {
    List<String> args = new ArrayList<>(PLUGIN_JVM_DEFAULTS);
    List<String> pom = new ArrayList<>();
    try {
      var doc =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(Path.of("pom.xml").toFile());
      NodeList nodes =
          (NodeList)
              XPathFactory.newInstance()
                  .newXPath()
                  .evaluate(
                      "//*[local-name()='plugin'][*[local-name()='artifactId']='gatling-maven-plugin']"
                          + "/*[local-name()='configuration']/*[local-name()='jvmArgs']/*[local-name()='jvmArg']",
                      doc,
                      XPathConstants.NODESET);
      for (int i = 0; i < nodes.getLength(); i++) {
        pom.add(nodes.item(i).getTextContent().trim());
      }
    } catch (Exception e) {
      // run from elsewhere than the project's root: the values pom.xml had when this was written
    }
    args.addAll(pom.isEmpty() ? POM_JVM_ARGS_FALLBACK : pom);
    if (!args.contains(ADD_OPENS)) {
      args.add(ADD_OPENS);
    }
    return args;
  }

  private static Path findRequestsJsonl(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(p -> p.getFileName().toString().equals("requests.jsonl"))
          .findFirst()
          .orElse(null);
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(no log)";
    }
  }

  private static String num(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  // ---------------------------------------------------------------------------------------------
  // the lean client of --client raw

  /**
   * A closed-loop streaming client that does as little as it can per chunk: C keep-alive
   * connections, each sending its next request once the previous response's terminating chunk
   * ({@code 0\r\n\r\n}) arrived; no HTTP or SSE decoding. Args: port, concurrency, max_tokens,
   * seconds, prompt words. Prints {@code requests <n>} at the end.
   */
  public static final class RawClient {
    private RawClient() {}

    public static void main(String[] args) throws Exception {
      InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
      int port = Integer.parseInt(args[0]);
      int conc = Integer.parseInt(args[1]);
      int maxTokens = Integer.parseInt(args[2]);
      int seconds = Integer.parseInt(args[3]);
      int words = Integer.parseInt(args[4]);
      StringBuilder prompt = new StringBuilder();
      for (int i = 0; i < words; i++) {
        prompt.append(i == 0 ? "" : " ").append("word");
      }
      byte[] body =
          ("{\"model\":\""
                  + PacedServer.MODEL
                  + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
                  + prompt
                  + "\"}],\"max_tokens\":"
                  + maxTokens
                  + ",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                  + "\"ignore_eos\":true}")
              .getBytes(StandardCharsets.UTF_8);
      // The load lasts `seconds` from the first request, as a benchmark's window counts from the
      // first request the server received: the client is still running when the window ends.
      AtomicLong endNanos = new AtomicLong(Long.MAX_VALUE);
      AtomicLong requests = new AtomicLong();
      AtomicLong ids = new AtomicLong();
      CountDownLatch closed = new CountDownLatch(conc);
      boolean epoll = Epoll.isAvailable();
      EventLoopGroup group =
          new MultiThreadIoEventLoopGroup(
              1,
              new DefaultThreadFactory("raw-client", true),
              epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
      try {
        Bootstrap b =
            new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(
                    new ChannelInitializer<SocketChannel>() {
                      @Override
                      protected void initChannel(SocketChannel ch) {
                        ch.closeFuture().addListener(f -> closed.countDown());
                        ch.pipeline()
                            .addLast(
                                new ChannelInboundHandlerAdapter() {
                                  /**
                                   * The last five bytes read, one per byte of the long: the end is
                                   * "0\r\n\r\n".
                                   */
                                  private long tail;

                                  @Override
                                  public void channelActive(ChannelHandlerContext ctx) {
                                    send(ctx);
                                  }

                                  private void send(ChannelHandlerContext ctx) {
                                    if (endNanos.get() == Long.MAX_VALUE) {
                                      endNanos.compareAndSet(
                                          Long.MAX_VALUE,
                                          System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds));
                                    }
                                    byte[] head =
                                        ("POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:"
                                                + port
                                                + "\r\ncontent-type: application/json\r\nx-request-id: raw-"
                                                + ids.incrementAndGet()
                                                + "\r\ncontent-length: "
                                                + body.length
                                                + "\r\n\r\n")
                                            .getBytes(StandardCharsets.US_ASCII);
                                    ctx.writeAndFlush(
                                        Unpooled.wrappedBuffer(head, body), ctx.voidPromise());
                                  }

                                  @Override
                                  public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                    ByteBuf buf = (ByteBuf) msg;
                                    try {
                                      int from = Math.max(buf.readerIndex(), buf.writerIndex() - 5);
                                      for (int i = from; i < buf.writerIndex(); i++) {
                                        tail =
                                            (tail << 8 | (buf.getByte(i) & 0xff)) & 0xff_ffff_ffffL;
                                      }
                                    } finally {
                                      buf.release();
                                    }
                                    if (tail == END) {
                                      tail = 0;
                                      requests.incrementAndGet();
                                      if (System.nanoTime() < endNanos.get()) {
                                        send(ctx);
                                      } else {
                                        ctx.close();
                                      }
                                    }
                                  }

                                  @Override
                                  public void exceptionCaught(
                                      ChannelHandlerContext ctx, Throwable cause) {
                                    ctx.close();
                                  }
                                });
                      }
                    });
        List<Channel> channels = new ArrayList<>();
        for (int i = 0; i < conc; i++) {
          channels.add(b.connect("127.0.0.1", port).sync().channel());
        }
        closed.await(seconds + 60L, TimeUnit.SECONDS);
        for (Channel c : channels) {
          c.close();
        }
        System.out.println("requests " + requests.get());
      } finally {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      }
    }

    /** "0\r\n\r\n" as five bytes of a long. */
    private static final long END =
        ((long) '0' << 32) | ('\r' << 24) | ('\n' << 16) | ('\r' << 8) | '\n';
  }
}
