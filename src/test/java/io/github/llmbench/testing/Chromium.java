package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Debian's headless Chromium, to open a report page from disk as a reader would. */
public final class Chromium {
  private Chromium() {}

  /** The page's DOM after its scripts ran, and Chromium's log. */
  public record Dump(String dom, String log) {}

  public static Dump open(Path html) throws Exception {
    String chromium = find();
    Path profile = Files.createTempDirectory("llm-chromium");
    List<String> cmd = List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
        "--virtual-time-budget=3000", "--dump-dom", html.toUri().toString());
    Path stdout = profile.resolve("dom.html");
    Path stderr = profile.resolve("stderr.txt");
    Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("chromium did not finish within 30 s");
    }
    Dump d = new Dump(Files.readString(stdout), Files.readString(stderr));
    assertEquals(0, p.exitValue(), d.log());
    return d;
  }

  /**
   * Checks that {@code llm.html}'s own status element counts {@code charts} charts expected and
   * drawn and no script error, and that Chromium logged no console error.
   */
  public static void assertChartsDrawn(Dump d, int charts) {
    Matcher m = Pattern.compile("id=\"llm-status\"[^>]*>").matcher(d.dom());
    assertTrue(m.find(), "status element missing:\n" + d.log());
    String status = m.group();
    assertTrue(status.contains("data-expected=\"" + charts + "\""), status);
    assertTrue(status.contains("data-drawn=\"" + charts + "\""), status);
    assertTrue(status.contains("data-errors=\"0\""), status);
    assertEquals(charts, count(d.dom(), "class=\"highcharts-container"), "drawn charts");
    for (String line : d.log().lines().toList()) {
      boolean console = line.contains("CONSOLE") || line.contains("Uncaught");
      assertFalse(console && (line.contains("rror") || line.contains("Uncaught")), line);
    }
  }

  public static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  static String find() {
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
        File f = new File(dir, name);
        if (f.canExecute()) {
          return f.getAbsolutePath();
        }
      }
    }
    fail("chromium is not installed: the page tests need it (Debian: apt-get install -y chromium; .ci/run installs it)");
    return null;
  }
}
