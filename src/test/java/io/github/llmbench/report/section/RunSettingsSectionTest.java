package io.github.llmbench.report.section;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.report.section.PagePart.Table;
import io.github.llmbench.summary.CapacityFigures;
import io.github.llmbench.summary.RunInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The run's settings: one row per field of its info, nested maps flattened by dotted keys. */
class RunSettingsSectionTest {
  private static final RunSettingsSection SECTION = new RunSettingsSection();
  private static final RunAnalysis NO_RECORDS = BackToBackLevels.analysis(List.of());

  private static RunInfo info() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("concurrency", "4");
    settings.put("api_key", "sk-secret");
    settings.put("base.url", "https://me:pw@h:8000");
    return RunInfo.builder()
        .backend("openai-chat")
        .modelId("m")
        .baseUrl("http://user:pw@h:8000")
        .seed(42L)
        .inputLen(128)
        .settings(settings)
        .capacity(
            new CapacityFigures(
                "conc",
                "bracketed",
                8.0,
                16.0,
                "c8",
                Map.of("ttft.p99", 2000.0),
                0.1,
                List.of(),
                null,
                null,
                null,
                null,
                null,
                null))
        .analysisInputs(new RunInfo.AnalysisInputs(List.of(99.0), null, null, null))
        .build();
  }

  private static Table table(RunInfo info) {
    return SectionRows.of(SECTION, NO_RECORDS, info).table("Run");
  }

  @Test
  void theRowsAreTheInfosFieldsInOrderByTheirSummaryNames() {
    assertEquals(
        List.of(
            "backend",
            "model_id",
            "base_url",
            "seed",
            "input_len",
            "settings.concurrency",
            "settings.base.url"),
        List.copyOf(SectionRows.byName(table(info())).keySet()));
  }

  @Test
  void theHeadersAreSettingAndValue() {
    assertEquals(List.of("Setting", "Value"), table(info()).headers());
  }

  @Test
  void eachValueIsAsGiven() {
    assertEquals("openai-chat", SectionRows.cell(table(info()), "backend", "Value"));
    assertEquals("42", SectionRows.cell(table(info()), "seed", "Value"));
    assertEquals("4", SectionRows.cell(table(info()), "settings.concurrency", "Value"));
  }

  @Test
  void noUrlShowsItsUserInfo() {
    assertEquals("http://h:8000", SectionRows.cell(table(info()), "base_url", "Value"));
    assertEquals("https://h:8000", SectionRows.cell(table(info()), "settings.base.url", "Value"));
  }

  @Test
  void aSecretSettingHasNoRow() {
    assertFalse(SectionRows.byName(table(info())).containsKey("settings.api_key"));
  }

  @Test
  void theCapacityAndTheAnalysisInputsHaveNoRow() {
    assertTrue(
        SectionRows.byName(table(info())).keySet().stream()
            .noneMatch(k -> k.startsWith("capacity") || k.startsWith("analysis_inputs")));
  }

  @Test
  void aRunOfNoInfoHasAnEmptyTable() {
    assertTrue(table(RunInfo.NONE).rows().isEmpty());
  }
}
