package io.github.llmbench.workload.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DelayTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Delay parse(String json) throws Exception {
    return Delay.parse(JSON.readTree(json), "d");
  }

  /** The mean of many draws, against the delay's own mean. */
  private static void drawsAverageTheMean(Delay d) {
    Random r = new Random(1);
    int n = 200_000;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      double x = d.drawMs(r);
      assertTrue(x >= 0, d + " drew " + x);
      sum += x;
    }
    assertEquals(d.meanMs(), sum / n, d.meanMs() * 0.01, d.toString());
  }

  @Test
  void eachDistributionDrawsAroundItsMean() throws Exception {
    assertEquals(new Delay.Fixed(120), parse("120"));
    assertEquals(new Delay.Fixed(5), parse("{\"dist\":\"fixed\",\"ms\":5}"));
    drawsAverageTheMean(parse("{\"dist\":\"uniform\",\"min\":20,\"max\":80}"));
    drawsAverageTheMean(parse("{\"dist\":\"exponential\",\"mean\":300}"));
    drawsAverageTheMean(parse("{\"dist\":\"lognormal\",\"median\":120,\"sigma\":0.5}"));
    assertEquals(Delay.NONE, Delay.parse(null, "d"));
  }

  @Test
  void aBadDelayNamesTheFieldAndTheForms() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> parse("{\"dist\":\"gamma\",\"k\":2}"));
    assertEquals(
        "d is {\"dist\":\"gamma\",\"k\":2} (expected " + Delay.ACCEPTED + ")", e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> parse("{\"dist\":\"uniform\",\"min\":9,\"max\":2}"));
    assertEquals(
        "d.mean is missing (expected " + Delay.ACCEPTED + ")",
        assertThrows(IllegalArgumentException.class, () -> parse("{\"dist\":\"exponential\"}"))
            .getMessage());
  }
}
