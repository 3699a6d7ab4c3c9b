package io.github.llmbench.gates;

import java.util.List;

/**
 * Gate results as JUnit XML ({@code llm/gates.xml}), the format CI systems show as test results:
 * one test case per gate and level, a {@code <failure>} for each broken one.
 */
public final class GatesXml {
  private GatesXml() {}

  public static String of(List<GateResult> results, String suiteName) {
    long failures = results.stream().filter(r -> !r.pass()).count();
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append("<testsuite name=\"")
        .append(escape(suiteName))
        .append("\" tests=\"")
        .append(results.size())
        .append("\" failures=\"")
        .append(failures)
        .append("\" errors=\"0\" skipped=\"0\">\n");
    for (GateResult r : results) {
      sb.append("  <testcase classname=\"gates.")
          .append(escape(r.level()))
          .append("\" name=\"")
          .append(escape(r.name()))
          .append("\"");
      if (r.pass()) {
        sb.append("/>\n");
      } else {
        sb.append(">\n    <failure message=\"")
            .append(escape(r.line().trim()))
            .append("\"/>\n  </testcase>\n");
      }
    }
    return sb.append("</testsuite>\n").toString();
  }

  static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
