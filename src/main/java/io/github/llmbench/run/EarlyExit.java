package io.github.llmbench.run;

import io.github.llmbench.injection.TargetException;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.settings.SettingsTable;
import io.github.llmbench.workload.DatasetException;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Ends the JVM before any load is sent: after {@code -Dhelp}, or on a bad setting, dataset or an
 * unusable server. It halts rather than throws because Gatling would print a stack trace and exit
 * with its own status.
 */
public final class EarlyExit {
  /** Exit status for a bad setting or an unusable server (Gatling uses 1 and 2 itself). */
  public static final int EXIT_BAD_INPUT = 3;

  private EarlyExit() {}

  /**
   * With {@code -Dhelp}: prints every setting, a topic's, or those the mode the other properties
   * choose accepts, and ends the JVM (status 0).
   */
  public static void ifHelpAsked() {
    if (System.getProperty("help") != null) {
      System.out.print(onBadInput(() -> SettingsTable.helpFor(BenchSettings.systemProperties())));
      System.out.flush();
      Runtime.getRuntime().halt(0);
    }
  }

  /** As {@link #onBadInput(Supplier)} with {@code halt}, else the step's exception is thrown. */
  static <T> T onBadInput(boolean halt, Supplier<T> step) {
    return halt ? onBadInput(step) : step.get();
  }

  /**
   * The value, or on bad input one line and the end of the JVM (status {@value #EXIT_BAD_INPUT}).
   */
  public static <T> T onBadInput(Supplier<T> step) {
    try {
      return step.get();
    } catch (SettingsException | TargetException | DatasetException e) {
      System.out.flush();
      System.err.println("gatling-llm-bench: " + e.getMessage());
      System.err.flush();
      Runtime.getRuntime().halt(EXIT_BAD_INPUT);
      throw e;
    }
  }

  /**
   * Runs a sweep and ends the JVM with its status: the sweep ran every combination in JVMs of its
   * own, so this one has no load of its own for Gatling to run. Bad input ends it as {@link
   * #onBadInput(Supplier)} does.
   */
  public static void afterSweep(IntSupplier sweep) {
    int status = onBadInput(() -> sweep.getAsInt());
    System.out.flush();
    System.exit(status);
  }
}
