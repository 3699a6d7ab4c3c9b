package io.github.llmbench.gates;

import io.github.llmbench.analysis.GateVerdict;
import java.util.List;
import java.util.Optional;

/**
 * Gate results as JUnit XML ({@code llm/gates.xml}), the format CI systems show as test results:
 * one test case per gate and level, a {@code <failure>} for each broken one, a {@code <skipped>}
 * for an inconclusive one that passed ({@code -Dgate.inconclusive=pass}); a gate judged on an
 * interval says it in {@code <system-out>}; the suite's properties carry the family-wise false
 * alarm and, where relative gates were judged without run-to-run noise, that their error rates are
 * unknown ({@code uncalibrated}).
 */
public final class GatesXml {
  private GatesXml() {}

  public static String of(List<GateResult> results, String suiteName) {
    long failures = results.stream().filter(r -> !r.pass()).count();
    long skipped =
        results.stream().filter(r -> r.pass() && r.verdict() == GateVerdict.INCONCLUSIVE).count();
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append("<testsuite name=\"")
        .append(escape(suiteName))
        .append("\" tests=\"")
        .append(results.size())
        .append("\" failures=\"")
        .append(failures)
        .append("\" errors=\"0\" skipped=\"")
        .append(skipped)
        .append("\">\n");
    Optional<String> family = GateCheck.familyLine(results);
    Optional<String> uncalibrated = GateCheck.uncalibratedLine(results);
    if (family.isPresent() || uncalibrated.isPresent()) {
      sb.append("  <properties>\n");
      family.ifPresent(line -> property(sb, "family-wise", line));
      uncalibrated.ifPresent(line -> property(sb, "uncalibrated", line));
      sb.append("  </properties>\n");
    }
    for (GateResult r : results) {
      sb.append("  <testcase classname=\"gates.")
          .append(escape(r.level()))
          .append("\" name=\"")
          .append(escape(r.name()))
          .append("\"");
      if (r.pass() && r.judgement() == null) {
        sb.append("/>\n");
        continue;
      }
      sb.append(">\n");
      if (!r.pass()) {
        sb.append("    <failure message=\"").append(escape(r.line().trim())).append("\"/>\n");
      } else if (r.verdict() == GateVerdict.INCONCLUSIVE) {
        sb.append("    <skipped message=\"").append(escape(r.line().trim())).append("\"/>\n");
      }
      if (r.judgement() != null) {
        sb.append("    <system-out>").append(escape(r.judgementText())).append("</system-out>\n");
      }
      sb.append("  </testcase>\n");
    }
    return sb.append("</testsuite>\n").toString();
  }

  private static void property(StringBuilder sb, String name, String value) {
    sb.append("    <property name=\"")
        .append(name)
        .append("\" value=\"")
        .append(escape(value))
        .append("\"/>\n");
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
