package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SourceSizesTest {

  private static final String SOURCE =
      String.join(
          "\n",
          "package x;", // 1
          "",
          "/** A {@code class}. */",
          "public final class Sample {", // 4
          "  private static final byte[] HEAD = b(\"{\");",
          "  private static final Runnable R =",
          "      () -> {",
          "        run(\"}\");",
          "      };",
          "",
          "  Sample(int a) {", // 11
          "    this.a = a;",
          "  }", // 13
          "",
          "  @Override",
          "  public <T> List<T> items(", // 16
          "      String a, // a comment with a }",
          "      char c) {",
          "    if (a.isEmpty()) {",
          "      return List.of('}');",
          "    }",
          "    helper(a);",
          "    return List.of();",
          "  }", // 24
          "",
          "  abstract int size(String s);",
          "",
          "  private static byte[] b(String s) {", // 28
          "    return s.getBytes();",
          "  }", // 30
          "}",
          "");

  @Test
  void aMethodRunsFromItsDeclarationToItsClosingBrace() {
    assertEquals(
        List.of(
            new SourceSizes.Method("Sample", 11, 3),
            new SourceSizes.Method("items", 16, 9),
            new SourceSizes.Method("b", 28, 3)),
        SourceSizes.methods(SOURCE));
  }

  @Test
  void aFileCountsItsLines() {
    assertEquals(31, SourceSizes.lines(SOURCE));
  }

  @Test
  void aLongMethodIsMeasuredWhole() {
    StringBuilder body = new StringBuilder("class Long {\n  void many() {\n");
    for (int i = 0; i < 90; i++) {
      body.append("    step").append(i).append("();\n");
    }
    body.append("  }\n}\n");
    assertEquals(
        List.of(new SourceSizes.Method("many", 2, 92)), SourceSizes.methods(body.toString()));
  }
}
