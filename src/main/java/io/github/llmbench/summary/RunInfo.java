package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a run was: the server, the workload, the settings, what was found before the load, and, for
 * a search or a merge, their parts. At the top of {@code summary.json}, before the figures; fields
 * a run does not have are left out. Settings and checks never carry a secret ({@link Secrets}).
 *
 * @param date vLLM's format, {@code 20250101-120000} ({@link #date(LocalDateTime)})
 * @param backend {@code vllm-simulator} or {@code openai-<api>}
 * @param injector {@code i/N} for one injector of several, {@code merged: N injectors} for a merge
 * @param profiles per {@code level/profile}, the serving figures of a profiles run
 * @param settings every setting as given ({@code -D} name to value)
 * @param serverChecks what was found before the load (tokenizer, exactness, template, context)
 * @param gateDefinitions the gates as given, for a merge to check them over the whole load
 * @param capacity a capacity search's answer
 * @param injectors a merge's injectors
 * @param goodputObjectives the goodput objectives ({@code ttft:500 tpot:50}) when set
 * @param analysisInputs the settings a re-done report analyses with, typed
 * @param ab an interleaved A/B run's pairs and decisions ({@code -Dcandidate.url})
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunInfo(
    String date,
    String backend,
    String modelId,
    String injector,
    String baseUrl,
    String endpoint,
    String dataset,
    Long seed,
    Integer inputLen,
    Integer outputLen,
    Double rangeRatio,
    Integer prefixLen,
    Integer warmupRequests,
    Map<String, ServingFigures> profiles,
    Map<String, String> settings,
    Map<String, String> serverChecks,
    Map<String, String> gateDefinitions,
    CapacityFigures capacity,
    List<InjectorRun> injectors,
    String goodputObjectives,
    AnalysisInputs analysisInputs,
    AbFigures ab) {

  /** vLLM's {@code date} format, {@code %Y%m%d-%H%M%S}. */
  public static final DateTimeFormatter DATE_FORMAT =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

  /** The backend of a run against the embedded simulator. */
  public static final String SIMULATOR_BACKEND = "vllm-simulator";

  /** Nothing known. */
  public static final RunInfo NONE =
      new RunInfo(
          null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
          null, null, null, null, null, null, null);

  public RunInfo {
    baseUrl = Secrets.withoutUserInfo(baseUrl);
    settings = Secrets.without(settings);
    serverChecks = Secrets.without(serverChecks);
  }

  /**
   * One injector of a merged run.
   *
   * @param gatlingReport its Gatling report, relative to the merged folder
   * @param clockOffsetMs how much later its levels' first sends were than injector 0's, null when
   *     they share no level
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record InjectorRun(
      String injector, String run, int requests, Double clockOffsetMs, String gatlingReport) {}

  /**
   * The settings a re-done report ({@code report.ReportMain}, a merge) analyses the records with,
   * as typed values: the human-facing {@code settings} lines are not read back (summaries written
   * before this field still are).
   *
   * @param percentiles {@code -Dpercentiles} as given, in order; absent when not given
   * @param simModel the embedded simulator's model; absent against a real server
   * @param simGpu the embedded simulator's GPU; absent against a real server
   * @param prefixGroups how many distinct prefixes the prompts shared ({@code -Dprefix.groups});
   *     absent without shared prefixes
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record AnalysisInputs(
      List<Double> percentiles, String simModel, String simGpu, Integer prefixGroups) {}

  /** {@code date} as vLLM writes it. */
  public static String date(LocalDateTime time) {
    return DATE_FORMAT.format(time);
  }

  /** Whether the run was against the embedded simulator. */
  public boolean simulated() {
    return SIMULATOR_BACKEND.equals(backend);
  }

  /** This run with a capacity search's answer. */
  public RunInfo withCapacity(CapacityFigures c) {
    return new RunInfo(
        date,
        backend,
        modelId,
        injector,
        baseUrl,
        endpoint,
        dataset,
        seed,
        inputLen,
        outputLen,
        rangeRatio,
        prefixLen,
        warmupRequests,
        profiles,
        settings,
        serverChecks,
        gateDefinitions,
        c,
        injectors,
        goodputObjectives,
        analysisInputs,
        ab);
  }

  /** This run with an interleaved A/B run's answer. */
  public RunInfo withAb(AbFigures figures) {
    return new RunInfo(
        date,
        backend,
        modelId,
        injector,
        baseUrl,
        endpoint,
        dataset,
        seed,
        inputLen,
        outputLen,
        rangeRatio,
        prefixLen,
        warmupRequests,
        profiles,
        settings,
        serverChecks,
        gateDefinitions,
        capacity,
        injectors,
        goodputObjectives,
        analysisInputs,
        figures);
  }

  /** This run as the merge of injectors. */
  public RunInfo asMerge(List<InjectorRun> merged) {
    return new RunInfo(
        date,
        backend,
        modelId,
        "merged: " + merged.size() + " injectors",
        baseUrl,
        endpoint,
        dataset,
        seed,
        inputLen,
        outputLen,
        rangeRatio,
        prefixLen,
        warmupRequests,
        profiles,
        settings,
        serverChecks,
        gateDefinitions,
        capacity,
        List.copyOf(merged),
        goodputObjectives,
        analysisInputs,
        ab);
  }

  /** This run with the settings a re-done report analyses with. */
  public RunInfo withAnalysisInputs(AnalysisInputs inputs) {
    return new RunInfo(
        date,
        backend,
        modelId,
        injector,
        baseUrl,
        endpoint,
        dataset,
        seed,
        inputLen,
        outputLen,
        rangeRatio,
        prefixLen,
        warmupRequests,
        profiles,
        settings,
        serverChecks,
        gateDefinitions,
        capacity,
        injectors,
        goodputObjectives,
        inputs,
        ab);
  }
}
