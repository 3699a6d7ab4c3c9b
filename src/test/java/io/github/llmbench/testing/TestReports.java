package io.github.llmbench.testing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.report.RunReport;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The end-of-run report of records made in a test, and its summary read back typed. */
public final class TestReports {
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private TestReports() {}

  /**
   * Analyses the records and writes the run folder's report as a run's end does.
   *
   * @param info what the run was, as {@code summary.json} names it ({@code {"model_id": "m"}})
   */
  public static RunAnalysis write(
      Path runDir,
      List<RequestRecord> records,
      RunAnalysis.Telemetry telemetry,
      Map<String, Integer> concurrencyByLevel,
      ModelSpec model,
      GpuSpec gpu,
      int tp,
      Map<String, ?> info,
      PrintStream console) {
    RunAnalysis a =
        RunAnalysis.of(
            RunAnalysis.Inputs.builder(records)
                .telemetry(telemetry)
                .concurrencyByLevel(concurrencyByLevel)
                .model(model)
                .gpu(gpu)
                .tp(tp)
                .rooflineHint(RunReport.ROOFLINE_HINT)
                .build());
    RunReport.of(a, info(info)).write(runDir, Set.of(), console);
    return a;
  }

  /** A run's description from its {@code summary.json} fields. */
  public static RunInfo info(Map<String, ?> fields) {
    return JSON.convertValue(fields, RunInfo.class);
  }

  /** The run folder's {@code llm/summary.json}, read. */
  public static Summary summary(Path runDir) {
    try {
      return Summary.read(RunFiles.ofRun(runDir).summary());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
