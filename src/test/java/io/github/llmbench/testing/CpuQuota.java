package io.github.llmbench.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A real, known slowdown for a real server: the process moved into its own cgroup-v1 {@code cpu}
 * group, whose CFS quota ({@code cpu.cfs_quota_us} per {@code cpu.cfs_period_us} of 10 ms) caps the
 * share of a core it may use; and its threads pinned to one core. For benchmarks on a machine with
 * the controller mounted read-write at {@code /sys/fs/cgroup/cpu}; {@link #close} moves the process
 * back and removes the group.
 */
public final class CpuQuota implements AutoCloseable {
  /** Where the cgroup-v1 cpu controller is mounted. */
  public static final Path CPU = Path.of("/sys/fs/cgroup/cpu");

  /** The CFS period: 10 ms, so a throttled server waits at most a few ms at a time. */
  public static final int PERIOD_US = 10_000;

  private final Path group;
  private final long pid;

  private CpuQuota(Path group, long pid) {
    this.group = group;
    this.pid = pid;
  }

  /** Whether this machine lets a benchmark set quotas. */
  public static boolean available() {
    return Files.isWritable(CPU.resolve("cgroup.procs"));
  }

  /**
   * A new group {@code name} without a quota (yet) and no process: one a command joins itself
   * ({@code echo $$ > .../cgroup.procs}), as the servers an A/B run in blocks starts do.
   */
  public static CpuQuota empty(String name) {
    Path group = CPU.resolve(name);
    try {
      Files.createDirectories(group);
      write(group.resolve("cpu.cfs_period_us"), PERIOD_US);
      write(group.resolve("cpu.cfs_quota_us"), -1);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make cgroup " + group, e);
    }
    return new CpuQuota(group, -1);
  }

  /** The file a process writes its pid to, to join the group. */
  public Path procs() {
    return group.resolve("cgroup.procs");
  }

  /** Moves the process into a new group {@code name} without a quota (yet). */
  public static CpuQuota of(String name, long pid) {
    Path group = CPU.resolve(name);
    try {
      Files.createDirectories(group);
      write(group.resolve("cpu.cfs_period_us"), PERIOD_US);
      write(group.resolve("cpu.cfs_quota_us"), -1);
      write(group.resolve("cgroup.procs"), pid);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot put pid " + pid + " into cgroup " + group, e);
    }
    return new CpuQuota(group, pid);
  }

  /**
   * Caps the group at {@code share} of one core (0.9: 9 ms per 10 ms period); 1 or more lifts the
   * cap.
   */
  public void limit(double share) {
    if (!(share > 0.0)) {
      throw new IllegalArgumentException("a CPU share must be above 0: " + share);
    }
    long quota = share >= 1.0 ? -1 : Math.max(1000, Math.round(share * PERIOD_US));
    try {
      write(group.resolve("cpu.cfs_quota_us"), quota);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set the quota of " + group, e);
    }
  }

  /** How many periods the group was throttled in, from {@code cpu.stat}. */
  public long throttledPeriods() {
    try {
      for (String line : Files.readAllLines(group.resolve("cpu.stat"))) {
        if (line.startsWith("nr_throttled ")) {
          return Long.parseLong(line.substring("nr_throttled ".length()).trim());
        }
      }
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Pins every thread of the process to one core ({@code taskset -a -p -c core pid}). */
  public static void pin(long pid, int core) {
    try {
      Process p =
          new ProcessBuilder(
                  List.of("taskset", "-a", "-p", "-c", String.valueOf(core), String.valueOf(pid)))
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes());
      if (p.waitFor() != 0) {
        throw new IllegalStateException("taskset failed for pid " + pid + ": " + out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    try {
      if (pid > 0 && ProcessHandle.of(pid).isPresent()) {
        write(CPU.resolve("cgroup.procs"), pid);
      }
      Files.deleteIfExists(group);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove cgroup " + group, e);
    }
  }

  private static void write(Path file, long value) throws IOException {
    Files.writeString(file, Long.toString(value));
  }
}
