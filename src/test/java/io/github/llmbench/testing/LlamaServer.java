package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * llama.cpp's {@code llama-server} with {@link TinyLlamaGguf}'s model, for integration tests:
 * installed and started by {@code scripts/llama-server.sh} (on a free loopback port, {@code
 * --metrics}), checked healthy, and always stopped by its PID ({@link #close}, and a JVM shutdown
 * hook in case {@code @AfterAll} never runs). A server that cannot be installed or started FAILS
 * the test with the script's output and the end of the server's log: no silent skip.
 */
public final class LlamaServer implements AutoCloseable {
  /** The name the server lists in {@code /v1/models} ({@code --alias}). */
  public static final String MODEL = "tiny-llama";

  private static final Path ROOT = Path.of("").toAbsolutePath();
  private static final Path SCRIPT = ROOT.resolve("scripts/llama-server.sh");

  private final URI baseUrl;
  private final long pid;
  private final Path log;
  private final Path runDir;
  private final Thread hook;

  private LlamaServer(URI baseUrl, long pid, Path log, Path runDir) {
    this.baseUrl = baseUrl;
    this.pid = pid;
    this.log = log;
    this.runDir = runDir;
    this.hook =
        new Thread(
            () -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly),
            "llama-server-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Writes the model (once), installs the server (once) and starts it.
   *
   * @param name a name for this server's pid and log files ({@code target/llama-server/<name>/})
   */
  public static LlamaServer start(String name) {
    return start(name, TinyLlamaGguf.Vocabulary.WORDS, Map.of());
  }

  /**
   * As {@link #start(String)}, with a model of another vocabulary and more of the script's
   * environment (e.g. {@code LLAMA_CTX}, {@code LLAMA_SLOTS}).
   */
  public static LlamaServer start(
      String name, TinyLlamaGguf.Vocabulary vocabulary, Map<String, String> moreEnv) {
    Path runDir = ROOT.resolve("target/llama-server/" + name);
    Path model = ROOT.resolve("target/llama-server/" + modelFileName(vocabulary));
    StringBuilder out = new StringBuilder();
    try {
      if (!Files.exists(model)) {
        TinyLlamaGguf.write(model, TinyLlamaGguf.Shape.DEFAULT, vocabulary, 42);
      }
      // One ggml thread: the load generator shares the two cores of a CI runner, and ggml's
      // threads spin-wait on each other, so a second thread on a busy core stalls every token.
      Map<String, String> env =
          new HashMap<>(
              Map.of(
                  "LLAMA_RUN_DIR", runDir.toString(), "LLAMA_ALIAS", MODEL, "LLAMA_THREADS", "1"));
      env.putAll(moreEnv);
      int code = script(out, env, "start", model.toString());
      Map<String, String> vars = vars(out.toString());
      if (code != 0 || !vars.containsKey("BASE_URL") || !vars.containsKey("PID")) {
        fail(
            "llama-server could not be installed or started (scripts/llama-server.sh start, exit "
                + code
                + "):\n"
                + out
                + "\n--- end of "
                + runDir.resolve("server.log")
                + " ---\n"
                + tail(runDir.resolve("server.log"), 40));
      }
      LlamaServer server =
          new LlamaServer(
              URI.create(vars.get("BASE_URL")),
              Long.parseLong(vars.get("PID")),
              Path.of(vars.get("LOG")),
              runDir);
      server.checkHealthy();
      return server;
    } catch (IOException e) {
      fail(
          "llama-server could not be started: "
              + e
              + "\n"
              + out
              + "\n"
              + tail(runDir.resolve("server.log"), 40));
      throw new AssertionError(); // unreachable
    }
  }

  /**
   * Installs the server (once) and writes the model (once) without starting a server, for a command
   * that starts its own ({@code scripts/llama-server.sh run}, a sweep's {@code -Dserve.cmd}).
   *
   * @return the model's file
   */
  public static Path prepared(TinyLlamaGguf.Vocabulary vocabulary) throws IOException {
    Path model = ROOT.resolve("target/llama-server/" + modelFileName(vocabulary));
    if (!Files.exists(model)) {
      TinyLlamaGguf.write(model, TinyLlamaGguf.Shape.DEFAULT, vocabulary, 42);
    }
    StringBuilder out = new StringBuilder();
    int code = script(out, Map.of(), "install");
    if (code != 0) {
      fail(
          "llama-server could not be installed (scripts/llama-server.sh install, exit "
              + code
              + "):\n"
              + out);
    }
    return model;
  }

  /** The script that installs, starts and runs the server. */
  public static Path script() {
    return SCRIPT;
  }

  static String modelFileName(TinyLlamaGguf.Vocabulary vocabulary) {
    TinyLlamaGguf.Shape s = TinyLlamaGguf.Shape.DEFAULT;
    // the generator's version in the name: a changed generator never reuses an older file
    return "tiny-llama-v"
        + TinyLlamaGguf.VERSION
        + "-"
        + s.layers()
        + "x"
        + s.embedding()
        + "-ff"
        + s.feedForward()
        + (vocabulary == TinyLlamaGguf.Vocabulary.WORDS
            ? ""
            : "-" + vocabulary.name().toLowerCase(Locale.ROOT))
        + ".gguf";
  }

  private void checkHealthy() {
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(baseUrl.resolve("/health"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IOException("GET /health: HTTP " + r.statusCode() + " " + r.body());
      }
    } catch (IOException | InterruptedException e) {
      close();
      fail("llama-server is not healthy: " + e + "\n--- end of " + log + " ---\n" + tail(log, 40));
    }
  }

  public URI baseUrl() {
    return baseUrl;
  }

  public long pid() {
    return pid;
  }

  public Path log() {
    return log;
  }

  /** The last lines of the server's log, for failure messages. */
  public String logTail(int lines) {
    return tail(log, lines);
  }

  /** Stops the server by its PID (the script: SIGTERM, then SIGKILL) and checks that it is gone. */
  @Override
  public void close() {
    StringBuilder out = new StringBuilder();
    try {
      script(out, Map.of("LLAMA_RUN_DIR", runDir.toString()), "stop");
    } catch (IOException e) {
      out.append(e);
    }
    Optional<ProcessHandle> p = ProcessHandle.of(pid);
    if (p.isPresent() && p.get().isAlive()) {
      p.get().destroyForcibly();
      try {
        p.get().onExit().get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("llama-server pid " + pid + " does not stop: " + out, e);
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down already
    }
  }

  private static int script(StringBuilder out, Map<String, String> env, String... args)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder();
    pb.command().add("bash");
    pb.command().add(SCRIPT.toString());
    pb.command().addAll(List.of(args));
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    pb.directory(ROOT.toFile());
    Process p = pb.start();
    out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    try {
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
    return p.exitValue();
  }

  private static Map<String, String> vars(String output) {
    Map<String, String> vars = new HashMap<>();
    for (String line : output.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && line.substring(0, eq).matches("[A-Z_]+")) {
        vars.put(line.substring(0, eq), line.substring(eq + 1).trim());
      }
    }
    return vars;
  }

  private static String tail(Path file, int lines) {
    try {
      if (!Files.exists(file)) {
        return "(no log: " + file + ")";
      }
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
