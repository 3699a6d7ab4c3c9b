package io.github.llmbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServeCommandTest {

  @Test
  void namedParametersFillTheirPlaceOthersAreAddedAsFlags() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("max_num_seqs", "64");
    p.put("max-num-batched-tokens", "8192");
    p.put("enable-chunked-prefill", "false");
    p.put("enforce-eager", "true");
    ServeCommand c =
        ServeCommand.of("vllm serve m --port {port} --max-num-seqs {max_num_seqs}", p, 8123);
    assertEquals(
        "vllm serve m --port 8123 --max-num-seqs 64 --max-num-batched-tokens 8192"
            + " --no-enable-chunked-prefill --enforce-eager",
        c.line());
    assertEquals(
        List.of(
            "vllm",
            "serve",
            "m",
            "--port",
            "8123",
            "--max-num-seqs",
            "64",
            "--max-num-batched-tokens",
            "8192",
            "--no-enable-chunked-prefill",
            "--enforce-eager"),
        c.arguments(),
        "no shell: the words themselves");
  }

  @Test
  void valuesAreOneShellWordEachInTheLog() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("x", "a b");
    p.put("y", "it's");
    assertEquals(
        "srv --port 1 --x 'a b' --y 'it'\\''s'", ServeCommand.of("srv --port {port}", p, 1).line());
  }

  /** The template's own quotes and backslashes are read as sh reads them. */
  @Test
  void theTemplateIsSplitAsAShellSplitsIt() {
    assertEquals(
        List.of("srv", "a b", "c d", "e f", "", "g\"h", "--json={\"k\": 1}", "--port", "2"),
        ServeCommand.of(
                "srv 'a b' \"c d\" e\\ f '' \"g\\\"h\" '--json={\"k\": 1}' --port {port}",
                Map.of(),
                2)
            .arguments());
  }

  /** Values that a shell, or a second scan for placeholders, would read as more than text. */
  private static Map<String, String> hostile(Path dir) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("a", "{b}");
    p.put("b", "x; touch " + dir.resolve("semicolon") + "; echo");
    p.put("c", "$(touch " + dir.resolve("subst") + ")");
    p.put("d", "`touch " + dir.resolve("backticks") + "`");
    p.put("e", "it's \"quoted\" \\");
    p.put("f", "line one\nline two");
    p.put("g", "  two  words ");
    p.put("h", "");
    return p;
  }

  /** What each value must arrive as: itself, one argument, in {@code <...>}. */
  private static String printed(Map<String, String> values) {
    StringBuilder sb = new StringBuilder();
    values.values().forEach(v -> sb.append('<').append(v).append(">\n"));
    return sb.toString();
  }

  private static final String EACH = "printf '<%s>\\n' {a} {b} {c} {d} {e} {f} {g} {h}";

  private static boolean anythingRan(Path dir) {
    return List.of("semicolon", "subst", "backticks").stream()
        .anyMatch(f -> Files.exists(dir.resolve(f)));
  }

  @Test
  void hostileValuesAreEachOneArgumentAsGiven(@TempDir Path dir) {
    Map<String, String> p = hostile(dir);
    p.put("x; touch " + dir.resolve("name"), "$(reboot)");
    ServeCommand c = ServeCommand.of("srv --a={a} '{b}' \"[{c}]\" {d}{e} {f} {g} {h}", p, 9);
    List<String> expected = new ArrayList<>(List.of("srv", "--a={b}", p.get("b")));
    expected.addAll(List.of("[" + p.get("c") + "]", p.get("d") + p.get("e"), p.get("f")));
    expected.addAll(List.of(p.get("g"), "", "--x; touch " + dir.resolve("name"), "$(reboot)"));
    assertEquals(expected, c.arguments());
  }

  /**
   * A template that uses the shell ({@code VAR=...}, {@code &&}, {@code $PWD}) runs under {@code sh
   * -c}: the template is the script, each value a positional parameter, referenced quoted.
   */
  @Test
  void aTemplateThatUsesTheShellGetsTheValuesAsPositionalParameters(@TempDir Path dir) {
    Map<String, String> p = hostile(dir);
    Map<String, String> three = new LinkedHashMap<>();
    three.put("b", p.get("b"));
    three.put("c", p.get("c"));
    three.put("a", p.get("a"));
    three.put("z", p.get("d"));
    ServeCommand c =
        ServeCommand.of(
            "CUDA_VISIBLE_DEVICES=0 srv {b} && echo \"<{c}>\" '{a}' $PWD --port {port} {b}",
            three,
            7);
    assertEquals(
        List.of(
            "/bin/sh",
            "-c",
            "CUDA_VISIBLE_DEVICES=0 srv \"${1}\" && echo \"<${2}>\" ''\"${3}\"'' $PWD"
                + " --port \"${4}\" \"${1}\" \"${5}\" \"${6}\"",
            "sh",
            p.get("b"),
            p.get("c"),
            p.get("a"),
            "7",
            "--z",
            p.get("d")),
        c.arguments());
    assertEquals(
        List.of("/bin/sh", "-c", "exec srv --port \"${1}\"", "sh", "1"),
        ServeCommand.of("exec srv --port {port}", Map.of(), 1).arguments(),
        "a shell's builtin first");
    assertEquals("srv", ServeCommand.of("srv --port {port}", Map.of(), 1).arguments().get(0));
  }

  @Test
  void theSimulatorIsThisJavaOnThisClassPath() {
    ServeCommand c = ServeCommand.of("simulator", Map.of("max-num-seqs", "4"), 9);
    assertTrue(
        c.line()
            .contains("io.github.llmbench.simulator.VllmSimulatorMain --port 9 --max-num-seqs 4"),
        c.line());
    assertTrue(c.line().contains(" -cp "), c.line());
    List<String> args = ServeCommand.of("simulator --model sim-tiny", Map.of(), 9).arguments();
    assertEquals("-cp", args.get(1));
    assertEquals(System.getProperty("java.class.path"), args.get(2));
    assertEquals(
        List.of(
            "io.github.llmbench.simulator.VllmSimulatorMain", "--port", "9", "--model", "sim-tiny"),
        args.subList(3, args.size()));
  }

  @Test
  void aTemplateThatIsNoneIsRefusedSayingWhy() {
    assertTrue(error("srv 'a --port {port}").contains("the ' at character 5 is never closed"));
    assertTrue(error("srv \"a --port {port}").contains("the \" at character 5 is never closed"));
    assertTrue(error("srv --port {port} \\").contains("lone backslash"));
    assertTrue(error("srv --port {port} {nope}").contains("not {nope}"));
    assertTrue(error("  ").contains("a command that starts the server"));
    assertEquals(
        List.of("srv", "{nope}", "--port", "1"),
        ServeCommand.of("srv \\{nope} --port {port}", Map.of(), 1).arguments(),
        "an escaped brace is text");
  }

  private static String error(String template) {
    return assertThrows(
            IllegalArgumentException.class, () -> ServeCommand.of(template, Map.of(), 1))
        .getMessage();
  }

  /** Started for real, with no shell: the child prints each argument it got; nothing else ran. */
  @Test
  void aStartedServerGetsEachHostileValueAsOneArgument(@TempDir Path dir) throws Exception {
    Map<String, String> p = hostile(dir);
    Path log = dir.resolve("server.log");
    ServeCommand c = ServeCommand.of(EACH, p, 1);
    assertEquals("printf", c.arguments().get(0), "no shell");
    assertEquals(0, ChildProcess.start(c.arguments(), log, Duration.ofSeconds(5)).waitFor());
    assertEquals(printed(p), Files.readString(log, StandardCharsets.UTF_8));
    assertFalse(anythingRan(dir), "no value was run");
  }

  /** The same through {@code sh -c}, the template asking for the shell (a redirection). */
  @Test
  void aStartedShellGetsEachHostileValueAsOneArgument(@TempDir Path dir) throws Exception {
    Map<String, String> p = hostile(dir);
    Path out = dir.resolve("out's file.txt");
    ServeCommand c = ServeCommand.of(EACH + " > " + ServeCommand.quoted(out.toString()), p, 1);
    assertEquals("/bin/sh", c.arguments().get(0), "a redirection needs the shell");
    Path log = dir.resolve("server.log");
    assertEquals(0, ChildProcess.start(c.arguments(), log, Duration.ofSeconds(5)).waitFor());
    assertEquals(printed(p), Files.readString(out, StandardCharsets.UTF_8));
    assertEquals("", Files.readString(log, StandardCharsets.UTF_8), "the shell said nothing");
    assertFalse(anythingRan(dir), "no value was run");
  }
}
