package io.github.llmbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A re-done report reads the typed analysis inputs, and an older summary's settings lines. */
class AnalysisInputsTest {

  /**
   * An older summary's run fields (at the summary's top): the settings lines only, as a run against
   * the simulator wrote them.
   */
  private static final String OLD_RUN =
      "\"backend\":\"vllm-simulator\",\"prefix_len\":64,"
          + "\"settings\":{\"sim.model\":\"qwen2.5-7b-instruct\",\"sim.gpu\":\"h100-80gb\","
          + "\"percentiles\":\"50,99.9\",\"prefix.groups\":\"4\"}";

  private static RunInfo run(String fields) throws Exception {
    return Summary.parse("{\"output_throughput\":1," + fields + "}").run();
  }

  @Test
  void anOlderSummaryIsReadBackFromItsSettingsLines() throws Exception {
    assertEquals(
        new RunInfo.AnalysisInputs(List.of(50.0, 99.9), "qwen2.5-7b-instruct", "h100-80gb", 4),
        ReportMain.analysisInputs(run(OLD_RUN)));
  }

  @Test
  void theTypedInputsWinOverTheSettingsLines() throws Exception {
    RunInfo run =
        run(
            OLD_RUN
                + ",\"analysis_inputs\":{\"percentiles\":[90.0],\"sim_model\":\"llama-3.1-8b\","
                + "\"prefix_groups\":2}");
    assertEquals(
        new RunInfo.AnalysisInputs(List.of(90.0), "llama-3.1-8b", null, 2),
        ReportMain.analysisInputs(run));
    assertEquals(2, ReportMain.prefixSharing(run).groups());
  }

  @Test
  void theTypedInputsSurviveTheSummarysJson() throws Exception {
    RunInfo.AnalysisInputs inputs =
        new RunInfo.AnalysisInputs(List.of(99.0, 50.0), "qwen2.5-7b-instruct", "rtx4080-32gb", 8);
    String written =
        new ObjectMapper()
            .writeValueAsString(Summary.asMap(run(OLD_RUN).withAnalysisInputs(inputs)));
    RunInfo back = Summary.parse("{\"output_throughput\":1," + written.substring(1)).run();
    assertEquals(inputs, back.analysisInputs());
  }

  @Test
  void aRealServersRunHasNoSimulatorInputs() throws Exception {
    RunInfo.AnalysisInputs inputs =
        ReportMain.analysisInputs(
            run("\"backend\":\"openai-chat\",\"settings\":{\"sim.model\":\"x\"}"));
    assertNull(inputs.simModel());
    assertNull(inputs.prefixGroups());
  }
}
