package io.github.llmbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepGridTest {

  @Test
  void aGridCrossesTheAxesTheFirstVaryingSlowest() {
    SweepGrid g =
        SweepGrid.parse("max_num_seqs:64,128;max_num_batched_tokens:2048,8192,16384", false);
    assertEquals(6, g.count());
    List<Map<String, String>> c = g.combinations();
    assertEquals(6, c.size());
    assertEquals(Map.of("max_num_seqs", "64", "max_num_batched_tokens", "2048"), c.get(0));
    assertEquals(Map.of("max_num_seqs", "64", "max_num_batched_tokens", "8192"), c.get(1));
    assertEquals(Map.of("max_num_seqs", "128", "max_num_batched_tokens", "16384"), c.get(5));
    assertEquals("max_num_seqs=64,max_num_batched_tokens=2048", SweepGrid.name(c.get(0)));
    assertEquals(List.of("max_num_seqs", "max_num_batched_tokens"), List.copyOf(c.get(3).keySet()));
  }

  @Test
  void zippedAxesGoTogetherValueByValue() {
    SweepGrid g = SweepGrid.parse("input.len:128,1024; output.len:64,256", true);
    assertEquals(
        List.of(
            Map.of("input.len", "128", "output.len", "64"),
            Map.of("input.len", "1024", "output.len", "256")),
        g.combinations());
  }

  @Test
  void badAxesNameWhatIsWrong() {
    for (String bad : new String[] {"64,128", "a:1;a:2", "a:1,,2", ":1"}) {
      String e =
          assertThrows(IllegalArgumentException.class, () -> SweepGrid.parse(bad, false))
              .getMessage();
      assertTrue(e.endsWith("expected " + SweepGrid.FORM), e);
    }
    assertEquals(
        "zipped axes need as many values each: a 2, b 3 (cross them instead)",
        assertThrows(IllegalArgumentException.class, () -> SweepGrid.parse("a:1,2;b:1,2,3", true))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    SweepGrid.parse(
                        "a:1,2,3,4,5,6,7,8,9,10;b:1,2,3,4,5,6,7,8,9,10;c:1,2,3,4,5,6,7,8,9,10,11",
                        false))
            .getMessage()
            .startsWith("1100 combinations (a 10, b 10, c 11): at most 1000"));
  }
}
