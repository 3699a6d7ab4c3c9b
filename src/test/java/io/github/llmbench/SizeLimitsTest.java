package io.github.llmbench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.testing.SourceSizes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source file over {@value #MAX_FILE_LINES} lines and no main method over {@value
 * #MAX_METHOD_LINES} (issue 40: small named steps with typed results), measured by {@link
 * SourceSizes}. The exceptions below are the files and methods being split right now; the lists
 * only shrink, and an exception that no longer needs to be one fails the test too, so it is removed
 * with the split that ends it.
 */
class SizeLimitsTest {
  private static final Path MAIN = Path.of("src/main/java/io/github/llmbench");

  static final int MAX_FILE_LINES = 700;
  static final int MAX_METHOD_LINES = 80;

  /** Files over the limit, by path under io/github/llmbench. */
  private static final Set<String> LONG_FILES = Set.of();

  /** Methods over the limit, as path#name. */
  private static final Set<String> LONG_METHODS = Set.of();

  @Test
  void noMainFileOrMethodIsLongerThanTheLimitOutsideTheListedExceptions() throws IOException {
    Set<String> longFiles = new TreeSet<>();
    Set<String> longMethods = new TreeSet<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String name = MAIN.relativize(file).toString().replace('\\', '/');
        String source = Files.readString(file);
        if (SourceSizes.lines(source) > MAX_FILE_LINES) {
          longFiles.add(name);
        }
        for (SourceSizes.Method m : SourceSizes.methods(source)) {
          if (m.lines() > MAX_METHOD_LINES) {
            longMethods.add(name + "#" + m.name());
          }
        }
      }
    }
    List<String> differences = differences(LONG_FILES, longFiles);
    differences.addAll(differences(LONG_METHODS, longMethods));
    assertTrue(differences.isEmpty(), String.join("\n", differences));
  }

  private static List<String> differences(Set<String> listed, Set<String> found) {
    List<String> lines = new ArrayList<>();
    for (String f : found) {
      if (!listed.contains(f)) {
        lines.add("over the limit, split it: " + f);
      }
    }
    for (String l : listed) {
      if (!found.contains(l)) {
        lines.add("within the limit now, remove it from the exceptions: " + l);
      }
    }
    return lines;
  }
}
