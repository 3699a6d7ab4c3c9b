package io.github.llmbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages' dependencies point one way (docs/architecture.md): each main source file may use
 * only the kit packages its own package is allowed, read from its imports and qualified names, and
 * each allowed one is used; the graph they draw has no cycle, so its arrows go one way, from the
 * composition root down to {@code core}.
 */
class ArchitectureTest {
  private static final Path MAIN = Path.of("src/main/java/io/github/llmbench");

  /** The package root's name in {@link #ALLOWED}. */
  static final String ROOT = "(root)";

  /**
   * What each package may use: the graph docs/architecture.md draws, no more, so a new dependency
   * changes both. The package root ({@link #ROOT}) holds {@code LlmBench} alone, the face of a run,
   * which {@code run} composes.
   */
  static final Map<String, Set<String>> ALLOWED =
      Map.ofEntries(
          Map.entry("core", Set.of()),
          Map.entry("servers", Set.of()),
          Map.entry("endpoints", Set.of("core")),
          Map.entry("catalog", Set.of()),
          Map.entry("settings", Set.of("core", "catalog", "endpoints", "simulator")),
          Map.entry("workload", Set.of("core", "settings", "endpoints")),
          Map.entry(
              "injection",
              Set.of("core", "settings", "workload", "capture", "records", "servers", "simulator")),
          Map.entry("capture", Set.of("core", "records", "endpoints")),
          Map.entry("telemetry", Set.of("core", "records", "servers")),
          Map.entry("records", Set.of("core", "endpoints")),
          Map.entry("analysis", Set.of("core", "catalog", "records", "servers", "endpoints")),
          Map.entry("summary", Set.of("core", "analysis", "endpoints")),
          Map.entry(
              "gates", Set.of("core", "settings", "records", "analysis", "summary", "endpoints")),
          Map.entry("history", Set.of("core", "settings", "analysis", "summary", "gates")),
          Map.entry(
              "report.section",
              Set.of("core", "settings", "records", "analysis", "summary", "gates")),
          Map.entry(
              "report.page",
              Set.of("records", "analysis", "summary", "gates", "history", "report.section")),
          Map.entry(
              "report",
              Set.of("records", "analysis", "summary", "gates", "report.section", "report.page")),
          Map.entry(
              "compare",
              Set.of(
                  "core",
                  "analysis",
                  "summary",
                  "gates",
                  "history",
                  "report.page",
                  "report.section",
                  "sweep")),
          Map.entry(
              "cli",
              Set.of(
                  "core",
                  "catalog",
                  "settings",
                  "records",
                  "analysis",
                  "summary",
                  "gates",
                  "history",
                  "report",
                  "sweep",
                  "report.page",
                  "compare")),
          Map.entry("deploy", Set.of()),
          Map.entry(ROOT, Set.of("core", "gates", "run", "settings", "workload")),
          Map.entry(
              "run",
              Set.of(
                  "analysis",
                  "capture",
                  "catalog",
                  "core",
                  "gates",
                  "history",
                  "injection",
                  "records",
                  "report",
                  "report.section",
                  "report.page",
                  "servers",
                  "settings",
                  "summary",
                  "sweep",
                  "telemetry",
                  "workload")),
          Map.entry(
              "sweep",
              Set.of(
                  "analysis",
                  "core",
                  "gates",
                  "injection",
                  "records",
                  "report.section",
                  "report.page",
                  "settings",
                  "simulator",
                  "summary")),
          Map.entry("simulator", Set.of("catalog", "servers")));

  /** A kit reference: the package path up to its first type name. */
  private static final Pattern KIT_REFERENCE =
      Pattern.compile("io\\.github\\.llmbench\\.((?:[a-z]+\\.)+)[A-Z]");

  /**
   * The listed package a package path belongs to: the longest listed prefix ({@code report.section}
   * is a row of its own, {@code workload.sessions} is part of {@code workload}).
   */
  static String listed(String packagePath) {
    String p = packagePath;
    while (!ALLOWED.containsKey(p) && p.contains(".")) {
      p = p.substring(0, p.lastIndexOf('.'));
    }
    return p;
  }

  @Test
  void everyPackageUsesExactlyTheDrawnOnes() throws IOException {
    List<String> violations = new ArrayList<>();
    Set<String> packages = new TreeSet<>();
    Map<String, Set<String>> used = new TreeMap<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Path relative = MAIN.relativize(file);
        String own =
            relative.getNameCount() < 2
                ? ROOT
                : listed(relative.getParent().toString().replace('/', '.'));
        packages.add(own);
        Set<String> allowed = ALLOWED.get(own);
        if (allowed == null) {
          violations.add(
              own
                  + ": a package the architecture does not list (add it to ALLOWED and docs/architecture.md)");
          continue;
        }
        Matcher m = KIT_REFERENCE.matcher(withoutComments(Files.readString(file)));
        while (m.find()) {
          String other = listed(m.group(1).substring(0, m.group(1).length() - 1));
          if (other.equals(own)) {
            continue;
          }
          used.computeIfAbsent(own, k -> new TreeSet<>()).add(other);
          if (!allowed.contains(other)) {
            violations.add(relative + " uses " + other);
          }
        }
      }
    }
    assertTrue(
        packages.containsAll(List.of("core", "settings", "analysis", "report")),
        "read the sources: " + packages);
    assertEquals(List.of(), violations.stream().distinct().toList());
    // the drawn graph is the real one: an edge nothing uses any more is dropped from both
    for (String own : packages) {
      Set<String> unused = new TreeSet<>(ALLOWED.getOrDefault(own, Set.of()));
      unused.removeAll(used.getOrDefault(own, Set.of()));
      assertEquals(
          Set.of(), unused, own + " no longer uses these: drop them from ALLOWED and the doc");
    }
  }

  @Test
  void theRootHoldsLlmBenchAlone() throws IOException {
    try (Stream<Path> files = Files.list(MAIN)) {
      assertEquals(
          List.of("LlmBench.java"),
          files
              .filter(f -> f.toString().endsWith(".java"))
              .map(f -> f.getFileName().toString())
              .toList(),
          "a run's parts live in run/ (or another package), not beside LlmBench");
    }
  }

  @Test
  void aReferenceAgainstTheLayersIsFound() {
    String source =
        "package io.github.llmbench.settings;\n/** {@link io.github.llmbench.gates.Gate} */\n"
            + "class X { io.github.llmbench.report.page.Html h; }\n";
    Matcher m = KIT_REFERENCE.matcher(withoutComments(source));
    List<String> used = new ArrayList<>();
    while (m.find()) {
      used.add(listed(m.group(1).substring(0, m.group(1).length() - 1)));
    }
    assertEquals(
        List.of("report.page"), used, "a comment's link is no dependency, a field's type is");
  }

  @Test
  void theDrawnGraphHasNoCycle() {
    assertEquals(List.of(), cycle(ALLOWED), "a cycle among the packages");
  }

  @Test
  void aCycleIsFound() {
    Map<String, Set<String>> graph =
        Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of());
    assertEquals(3, cycle(graph).size() - 1, "a -> b -> c -> a: " + cycle(graph));
  }

  /**
   * A cycle of the graph as the packages along it (the first again at the end), empty when there is
   * none: with none, every arrow points from a higher layer to a lower one.
   */
  static List<String> cycle(Map<String, Set<String>> graph) {
    Map<String, Integer> state = new TreeMap<>(); // absent: unseen, 1: on the path, 2: done
    for (String start : new TreeSet<>(graph.keySet())) {
      List<String> path = new ArrayList<>();
      List<String> found = visit(start, graph, state, path);
      if (!found.isEmpty()) {
        return found;
      }
    }
    return List.of();
  }

  private static List<String> visit(
      String node, Map<String, Set<String>> graph, Map<String, Integer> state, List<String> path) {
    Integer s = state.get(node);
    if (s != null && s == 2) {
      return List.of();
    }
    if (s != null) {
      List<String> loop = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
      loop.add(node);
      return loop;
    }
    state.put(node, 1);
    path.add(node);
    for (String next : new TreeSet<>(graph.getOrDefault(node, Set.of()))) {
      List<String> found = visit(next, graph, state, path);
      if (!found.isEmpty()) {
        return found;
      }
    }
    path.remove(path.size() - 1);
    state.put(node, 2);
    return List.of();
  }

  private static String withoutComments(String source) {
    return source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
  }
}
