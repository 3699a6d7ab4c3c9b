package io.github.llmbench.cli;

import io.github.llmbench.analysis.ChangePoints;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.history.HistorySeries;
import io.github.llmbench.report.page.HistoryPage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code mvn -q compile exec:java@history -Dexec.args="DIR [--out FILE]"}: the change points of
 * every figure's series in {@code DIR/history.jsonl} (per key and level), one console line each, a
 * count of the series without one, and {@code DIR/history.html} (or {@code FILE}). A bad argument
 * prints one line naming it and exits with status 3; a page that cannot be written or a history
 * that cannot be read exits 1.
 */
public final class HistoryMain {
  private HistoryMain() {}

  static final String USAGE = "exec:java@history -Dexec.args=\"DIR [--out FILE.html]\"";
  private static final String PREFIX = "gatling-llm-bench history: ";

  public static void main(String[] args) {
    int rc = run(args, System.out, System.err);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      List<String> dirs = new ArrayList<>();
      String outArg = null;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--out") || a.startsWith("--out=")) {
          if (a.contains("=")) {
            outArg = a.substring(a.indexOf('=') + 1);
          } else if (i + 1 < args.length) {
            outArg = args[++i];
          } else {
            throw new BadArgument("--out", "", "a file for the page, e.g. history.html");
          }
        } else if (a.startsWith("-")) {
          throw new BadArgument("option", a, "--out");
        } else {
          dirs.add(a);
        }
      }
      if (dirs.size() != 1 || !Files.isRegularFile(HistoryFile.of(Path.of(dirs.get(0))))) {
        throw new BadArgument(
            "history dir",
            dirs.isEmpty() ? "(none)" : String.join(",", dirs),
            "one folder holding " + HistoryFile.NAME + " (-Dhistory=DIR); usage: " + USAGE);
      }
      Path dir = Path.of(dirs.get(0));
      HistoryFile.Read read = HistoryFile.read(dir);
      List<HistorySeries> series = HistorySeries.all(read.lines(), ChangePoints.Settings.DEFAULT);
      out.print(consoleText(dir, read, series));
      Path page =
          HistoryPage.write(
              outArg == null ? dir.resolve(HistoryPage.FILE) : Path.of(outArg), read, series);
      out.println("History page:        " + page);
      return 0;
    } catch (BadArgument e) {
      err.println(PREFIX + e.getMessage());
      return 3;
    } catch (IOException | UncheckedIOException e) {
      err.println(PREFIX + e.getMessage());
      return 1;
    }
  }

  /** The console's lines: the history, one line per change point, the count without one. */
  static String consoleText(Path dir, HistoryFile.Read read, List<HistorySeries> series) {
    StringBuilder sb = new StringBuilder();
    long keys = read.lines().stream().map(HistoryLine::key).distinct().count();
    sb.append(
        String.format(
            Locale.ROOT,
            "History %s: %d run(s), %d key(s)%s%n",
            HistoryFile.of(dir),
            read.lines().size(),
            keys,
            read.notes()));
    int quiet = 0;
    for (HistorySeries s : series) {
      if (s.changePoints().isEmpty()) {
        quiet++;
      }
      for (ChangePoints.ChangePoint cp : s.changePoints()) {
        HistoryLine start = s.runs().get(cp.index() - 1);
        sb.append(
            String.format(
                Locale.ROOT,
                "change point: key %s %s %s from run %d of %d (%s, %s): %+.1f%% (%.4g -> %.4g),"
                    + " p %.3f%n",
                s.key(),
                s.level(),
                s.figure(),
                cp.index(),
                s.values().length,
                start.run(),
                start.time(),
                100 * cp.magnitude(),
                cp.before(),
                cp.after(),
                cp.pValue()));
      }
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "no change point: %d of %d series (E-divisive means, p < %s)%n",
            quiet,
            series.size(),
            ChangePoints.Settings.DEFAULT.pValue()));
    return sb.toString();
  }
}
