package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The values as the Maven plugin's fork received them (measured: `Invalid -Dconc=...` lines). */
class PluginForkTest {

  @Test
  void theForksEscapesAreUndone() {
    assertEquals(
        "{\"a\":0.5,\"b\":[1,2]}", PluginFork.unescaped("{\\\"a\\\":0.5,\\\"b\\\":[1,2]}"));
    assertEquals("a b, c=d é", PluginFork.unescaped("a b, c=d \\u00e9"));
    assertEquals("it's", PluginFork.unescaped("it\\'s"));
    assertEquals("x\\y", PluginFork.unescaped("x\\\\y"));
    assertEquals("a;b|c$HOME", PluginFork.unescaped("a;b|c$HOME"));
    assertEquals("tab\there", PluginFork.unescaped("tab\\there"));
    assertEquals("日本", PluginFork.unescaped("\\u65e5\\u672c"));
  }

  @Test
  void aBackslashBeforeAnythingElseStays() {
    assertEquals("C:\\data", PluginFork.unescaped("C:\\data"));
    assertEquals("end\\", PluginFork.unescaped("end\\"));
    assertEquals("\\u12", PluginFork.unescaped("\\u12"));
  }

  @Test
  void onlyTheForkIsRestored() {
    Map<String, String> given = Map.of("extra.body", "{\\\"t\\\":1}");
    assertSame(given, PluginFork.restored(given, "io.github.llmbench.Main"));
    assertSame(given, PluginFork.restored(given, null));
    assertEquals(
        "{\"t\":1}",
        PluginFork.restored(given, PluginFork.FORK_MAIN + " /tmp/args").get("extra.body"));
    assertTrue(PluginFork.isFork(PluginFork.FORK_MAIN));
    // as the plugin 4.21 starts it (ps)
    assertTrue(
        PluginFork.isFork(
            "/tmp/gatlingbooter14341198458194124976.jar io.gatling.app.Gatling -s X"));
    assertFalse(PluginFork.isFork("/tmp/other.jar io.gatling.app.Gatling"));
    assertFalse(PluginFork.isFork("org.apache.maven.wrapper.MavenWrapperMain"));
  }
}
