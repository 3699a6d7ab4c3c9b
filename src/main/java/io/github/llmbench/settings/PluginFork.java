package io.github.llmbench.settings;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Gatling Maven plugin runs Gatling in a JVM of its own ({@code
 * io.gatling.plugin.util.ForkMain}) and writes each {@code -D} value into its command Java-escaped
 * ({@code "} as {@code \"}, {@code '} as {@code \'}, a backslash doubled, a control or non-ASCII
 * character as {@code \}{@code uXXXX} or {@code \n}-style), which that JVM receives as is: {@code
 * -Dextra.body={"top_p":0.9}} arrives as {@code {\"top_p\":0.9}}. In that fork the kit reads every
 * value back unescaped, so a setting works through {@code mvn gatling:test} as it does anywhere
 * else.
 */
final class PluginFork {

  /** The plugin's forked JVM's main class, where it names it first in {@code sun.java.command}. */
  static final String FORK_MAIN = "io.gatling.plugin.util.ForkMain";

  /**
   * The jar the plugin writes to start its fork ({@code java -jar /tmp/gatlingbooter123.jar
   * io.gatling.app.Gatling ...}), whose manifest runs {@link #FORK_MAIN}.
   */
  static final String BOOTER_JAR = "gatlingbooter";

  private PluginFork() {}

  /** Whether this JVM is the plugin's fork, from its {@code sun.java.command}. */
  static boolean isFork(String javaCommand) {
    if (javaCommand == null || javaCommand.isBlank()) {
      return false;
    }
    String first = javaCommand.strip().split("\\s+", 2)[0];
    String name = first.substring(Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\')) + 1);
    return first.equals(FORK_MAIN) || (name.startsWith(BOOTER_JAR) && name.endsWith(".jar"));
  }

  /**
   * The properties as given on the command line: unescaped in the plugin's fork, else as they are.
   */
  static Map<String, String> restored(Map<String, String> properties, String javaCommand) {
    if (!isFork(javaCommand)) {
      return properties;
    }
    Map<String, String> out = new LinkedHashMap<>();
    properties.forEach((k, v) -> out.put(k, unescaped(v)));
    return out;
  }

  /** A value with the plugin's escapes undone; a backslash before anything else stays. */
  static String unescaped(String v) {
    if (v.indexOf('\\') < 0) {
      return v;
    }
    StringBuilder sb = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c != '\\' || i + 1 == v.length()) {
        sb.append(c);
        continue;
      }
      char next = v.charAt(i + 1);
      int unicode = next == 'u' ? hex(v, i + 2) : -1;
      if (unicode >= 0) {
        sb.append((char) unicode);
        i += 5;
        continue;
      }
      String plain =
          switch (next) {
            case 'b' -> "\b";
            case 't' -> "\t";
            case 'n' -> "\n";
            case 'f' -> "\f";
            case 'r' -> "\r";
            case '"', '\'', '\\' -> String.valueOf(next);
            default -> null;
          };
      if (plain == null) {
        sb.append(c);
      } else {
        sb.append(plain);
        i++;
      }
    }
    return sb.toString();
  }

  /** The four hex digits at {@code from}, or -1. */
  private static int hex(String v, int from) {
    if (from + 4 > v.length()) {
      return -1;
    }
    int n = 0;
    for (int i = from; i < from + 4; i++) {
      int d = Character.digit(v.charAt(i), 16);
      if (d < 0) {
        return -1;
      }
      n = n * 16 + d;
    }
    return n;
  }
}
