package io.github.llmbench.run;

import java.util.ArrayList;
import java.util.List;

/**
 * Work that must wait for Gatling's HTML report: linking our page from Gatling's menu, and failing
 * the command when a gate checked by the kit broke.
 *
 * <p>Gatling 3.15.1 runs the simulation, its {@code after()}, then writes the report and exits; a
 * JVM shutdown hook registered by the simulation runs after {@code index.html} exists. Runs that
 * embed Gatling in a longer-lived JVM (the project's own tests) call {@link #runNow()} instead.
 */
public final class AfterReport {
  private static final List<Runnable> TASKS = new ArrayList<>();
  private static boolean hooked;

  private AfterReport() {}

  static synchronized void add(Runnable task) {
    TASKS.add(task);
    if (!hooked) {
      hooked = true;
      Runtime.getRuntime()
          .addShutdownHook(new Thread(AfterReport::runNow, "llmbench-after-report"));
    }
  }

  /** Runs the pending tasks once, in order. */
  public static void runNow() {
    List<Runnable> tasks;
    synchronized (AfterReport.class) {
      tasks = new ArrayList<>(TASKS);
      TASKS.clear();
    }
    for (Runnable t : tasks) {
      t.run();
    }
  }
}
