package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchSettingsTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props::get, Map.<String, String>of()::get);
  }

  private static String error(Map<String, String> props) {
    return assertThrows(SettingsException.class, () -> read(props)).getMessage();
  }

  @Test
  void defaults() {
    BenchSettings s = read(Map.of());
    assertTrue(s.baseUrl().isEmpty());
    assertEquals(BenchSettings.Api.CHAT, s.api());
    assertEquals(1024, s.inputLen());
    assertEquals(128, s.outputLen());
    assertEquals(16, s.conc());
    assertEquals("qwen2.5-7b-instruct", s.simModel());
  }

  @Test
  void badNumbersNameThePropertyTheValueAndWhatIsAccepted() {
    assertEquals("Invalid -Dconc=abc: expected a whole number from 1 to 100000", error(Map.of("conc", "abc")));
    assertEquals("Invalid -Dconc=0: expected a whole number from 1 to 100000", error(Map.of("conc", "0")));
    assertTrue(error(Map.of("output.len", "-5")).startsWith("Invalid -Doutput.len=-5: expected a whole number"));
    assertTrue(error(Map.of("duration", "1.5")).startsWith("Invalid -Dduration=1.5"));
  }

  @Test
  void baseUrlMustBeHttpWithAHost() {
    for (String bad : new String[] {"localhost:8000", "ftp://x", "http://", "http:// bad", "http://h:1/?q=1"}) {
      String msg = error(Map.of("base.url", bad));
      assertTrue(msg.startsWith("Invalid -Dbase.url=" + bad + ": expected an http:// or https:// URL"), msg);
    }
    assertEquals("http://127.0.0.1:8000", read(Map.of("base.url", "http://127.0.0.1:8000/v1/")).baseUrl().get().toString());
    assertEquals("https://h.example/proxy", read(Map.of("base.url", "https://h.example/proxy")).baseUrl().get().toString());
  }

  @Test
  void apiAndSimulatorIdsAreChecked() {
    assertEquals(BenchSettings.Api.COMPLETIONS, read(Map.of("api", "completions")).api());
    assertEquals("Invalid -Dapi=responses: expected chat or completions", error(Map.of("api", "responses")));
    assertTrue(error(Map.of("sim.gpu", "tpu")).startsWith("Invalid -Dsim.gpu=tpu: expected one of "));
  }

  @Test
  void theApiKeyIsUsedButNeverDescribed() {
    BenchSettings s = BenchSettings.from(Map.<String, String>of()::get, Map.of("OPENAI_API_KEY", "sk-secret-123")::get);
    assertEquals("sk-secret-123", s.apiKey().get());
    assertFalse(s.describe().toString().contains("sk-secret-123"));
    assertFalse(s.toString().contains("sk-secret-123"));
    assertEquals("set (not shown)", s.describe().get("OPENAI_API_KEY"));
  }
}
