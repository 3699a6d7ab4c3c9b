package io.github.llmbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server the kit starts, waits for and stops, checked from outside (its process ids, exit codes).
 * The processes stopped here would live {@link #LIFE_S} s by themselves, far longer than a test
 * waits for them to be gone ({@link #GIVE_UP}): gone means stopped, on any machine, with no bound
 * on how long the stop took.
 */
class ChildProcessTest {
  private static final Duration GRACE = Duration.ofMillis(500);

  /** How long a process stopped here would live by itself. */
  private static final int LIFE_S = 600;

  /** How long a test waits for a process to be gone before it fails rather than hangs. */
  private static final Duration GIVE_UP = Duration.ofSeconds(60);

  /** {@code script} run by a shell: these tests' servers are shell scripts. */
  private static List<String> sh(String script) {
    return List.of("/bin/sh", "-c", script);
  }

  /** Waits until {@code pid} is gone (at most {@link #GIVE_UP}); whether it is. */
  private static boolean gone(long pid) throws Exception {
    long deadline = System.nanoTime() + GIVE_UP.toNanos();
    while (System.nanoTime() < deadline) {
      if (ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true)) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  @Test
  void aCommandThatExitsAtOnceSaysItsCodeAndItsLog(@TempDir Path dir) {
    try (ChildProcess s =
        ChildProcess.start(
            sh("echo loading; echo 'no such model' >&2; exit 3"), dir.resolve("a.log"), GRACE)) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> s.awaitReady(() -> false, Duration.ofSeconds(20), Duration.ofMillis(20)));
      assertTrue(
          e.getMessage().startsWith("the server exited with code 3 before it was ready"),
          e.getMessage());
      assertTrue(e.getMessage().endsWith("ends: loading | no such model"), e.getMessage());
    }
  }

  @Test
  void aServerNeverReadyIsStoppedAfterTheTimeout(@TempDir Path dir) throws Exception {
    ChildProcess s =
        ChildProcess.start(sh("echo up; exec sleep " + LIFE_S), dir.resolve("b.log"), GRACE);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> s.awaitReady(() -> false, Duration.ofSeconds(1), Duration.ofMillis(50)));
    assertTrue(e.getMessage().startsWith("the server was not ready within 1 s"), e.getMessage());
    assertTrue(s.alive());
    s.stop();
    assertTrue(gone(s.pid()));
  }

  /**
   * A server that ignores SIGTERM is killed after the grace: its exit code says SIGKILL ended it.
   * (An exec'd process, so that nothing but the signal can end it: a shell waiting on children
   * ended by the kit may exit 0 on its own first, on a busy machine.)
   */
  @Test
  void stoppingKillsWhatIgnoresSigterm(@TempDir Path dir) throws Exception {
    ChildProcess s =
        ChildProcess.start(sh("trap '' TERM; exec sleep " + LIFE_S), dir.resolve("c.log"), GRACE);
    int[] ready = {0};
    s.awaitReady(() -> ++ready[0] > 3, Duration.ofSeconds(10), Duration.ofMillis(20));
    assertEquals(Optional.of(128 + 9), s.stop(), "the exit code: SIGKILL ended it");
    assertFalse(s.alive());
  }

  /** Stopping ends the children a server started, even those that ignore SIGTERM. */
  @Test
  void stoppingEndsItsChildren(@TempDir Path dir) throws Exception {
    ChildProcess s =
        ChildProcess.start(
            sh("trap '' TERM; sleep " + LIFE_S + " & sleep " + LIFE_S + "; wait"),
            dir.resolve("d.log"),
            GRACE);
    int[] ready = {0};
    s.awaitReady(() -> ++ready[0] > 3, Duration.ofSeconds(10), Duration.ofMillis(20));
    List<Long> children =
        ProcessHandle.of(s.pid()).orElseThrow().descendants().map(ProcessHandle::pid).toList();
    assertEquals(2, children.size(), "two sleeps: " + children);
    s.stop();
    for (long child : children) {
      assertTrue(gone(child), "child " + child);
    }
    assertFalse(s.alive());
  }

  @Test
  void portsAreFilledIn() {
    assertEquals(
        "vllm serve m --port 8123 --max-num-seqs 64",
        ChildProcess.withPort("vllm serve m --port {port} --max-num-seqs 64", 8123));
  }

  /** A kit that started a server and is then ended by SIGTERM (Ctrl-C is SIGINT, handled alike). */
  public static final class Holder {
    public static void main(String[] args) throws Exception {
      ChildProcess s =
          ChildProcess.start(List.of("sleep", String.valueOf(LIFE_S)), Path.of(args[0]), GRACE);
      System.out.println("server " + s.pid());
      Thread.sleep(TimeUnit.SECONDS.toMillis(LIFE_S));
    }
  }

  @Test
  void noServerOutlivesAKitEndedBySigterm(@TempDir Path dir) throws Exception {
    Process kit =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                Holder.class.getName(),
                dir.resolve("d.log").toString())
            .redirectErrorStream(true)
            .start();
    long server;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(kit.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine();
      assertTrue(line != null && line.startsWith("server "), String.valueOf(line));
      server = Long.parseLong(line.substring(7).trim());
      assertTrue(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false));
      kit.destroy(); // SIGTERM: the kit's shutdown hook stops its servers
      assertTrue(kit.waitFor(GIVE_UP.toSeconds(), TimeUnit.SECONDS));
    } finally {
      kit.destroyForcibly();
    }
    assertTrue(gone(server), "server " + server + " outlived the kit");
  }
}
