package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CapacitySearch;
import io.github.llmbench.analysis.RunAnalysis;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapacityBlockTest {
  private static final RunAnalysis NO_RECORDS = RunAnalysis.of(List.of(), Map.of(), null, null, 1, "hint");

  @Test
  void theAnswerAndThinP99ProbesAreSaid() {
    List<CapacitySearch.Objective> slo = List.of(new CapacitySearch.Objective("ttft.p99", 2000));
    CapacitySearch s = new CapacitySearch(8, 64, 0.1, true);
    List<CapacitySearch.Probe> probes = List.of(
        CapacitySearch.judge(8, Map.of("ttft.p99", 900.0), slo), CapacitySearch.judge(16, Map.of("ttft.p99", 2400.0), slo));
    String block = CapacityBlock.format(s.verdict(probes), Map.of("ttft.p99", 2000.0), NO_RECORDS);
    assertTrue(block.contains("Capacity:  not bracketed (out of time, -Dsearch.budget): c8 met every objective; c16 broke ttft.p99 2400.00 > 2000.00 (+20.0%)"), block);
    assertTrue(block.contains("Probes:    c8 met (0 requests), c16 broke (0 requests)"), block);
    assertTrue(block.contains("! P99 objectives judged on fewer than 100 requests (c8: 0, c16: 0)"), block);
    assertEquals("none: the lowest level probed, c8, broke ttft.p99 2400.00 > 2000.00 (+20.0%) (lower -Dsearch.min)",
        CapacityBlock.sentence(s.verdict(List.of(CapacitySearch.judge(8, Map.of("ttft.p99", 2400.0), slo)))));
  }
}
