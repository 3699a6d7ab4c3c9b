package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExportSettingsTest {

  private static ExportSettings read(Map<String, String> props) {
    return ExportSettings.read(new SettingReader(props));
  }

  private static String error(Map<String, String> props) {
    return assertThrows(SettingsException.class, () -> read(props)).getMessage();
  }

  @Test
  void anOtlpUrlIsTheBaseItsSignalsGoUnder() {
    ExportSettings s = read(Map.of("export.otlp", "http://127.0.0.1:4318/"));
    assertEquals(
        Optional.of(
            new ExportSettings.Otlp(
                URI.create("http://127.0.0.1:4318"),
                ExportSettings.EXPORT_OTLP_INTERVAL.typedDefault().orElseThrow(),
                false)),
        s.otlp());
    assertTrue(s.prometheus().isEmpty(), "each export on its own");
    ExportSettings both =
        read(
            Map.of(
                "export.otlp", "https://collector:4318/api/v1/otlp",
                "export.otlp.interval", "1",
                "export.otlp.spans", "true",
                "export.prometheus", "0"));
    assertEquals(1, both.otlp().orElseThrow().intervalSeconds());
    assertTrue(both.otlp().orElseThrow().spans());
    assertTrue(both.prometheus().isPresent());
  }

  @Test
  void aBadUrlOrIntervalIsOneLineThatNeverShowsAPassword() {
    assertTrue(error(Map.of("export.otlp", "127.0.0.1:4318")).startsWith("Invalid -Dexport.otlp="));
    assertTrue(error(Map.of("export.otlp", "http://h:4318?x=1")).contains("expected an http://"));
    String withUser = error(Map.of("export.otlp", "http://me:s3cret@collector:4318"));
    assertFalse(withUser.contains("s3cret"), withUser);
    assertFalse(withUser.contains("me:"), withUser);
    assertTrue(withUser.contains("http://***@collector:4318"), withUser);
    assertTrue(
        error(Map.of("export.otlp", "http://h:4318", "export.otlp.interval", "0"))
            .contains("from 1 to 600"));
  }

  @Test
  void itsOptionsNeedTheUrl() {
    assertEquals(
        "-Dexport.otlp.spans applies to -Dexport.otlp=URL",
        error(Map.of("export.otlp.spans", "true")));
    assertEquals(
        "-Dexport.otlp.interval applies to -Dexport.otlp=URL",
        error(Map.of("export.otlp.interval", "5")));
    assertEquals(ExportSettings.NONE, read(Map.of()));
  }
}
