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
  public static final RunInfo NONE = builder().build();

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

  /** This run with the mode's figures: a capacity search's answer, an A/B run's pairs. */
  public RunInfo withMode(ModeFigures figures) {
    return toBuilder().mode(figures).build();
  }

  /** This run with a capacity search's answer (null: none). */
  public RunInfo withCapacity(CapacityFigures c) {
    return toBuilder().capacity(c).build();
  }

  /** This run with an interleaved A/B run's answer (null: none). */
  public RunInfo withAb(AbFigures figures) {
    return toBuilder().ab(figures).build();
  }

  /** This run as the merge of injectors. */
  public RunInfo asMerge(List<InjectorRun> merged) {
    return toBuilder()
        .injector("merged: " + merged.size() + " injectors")
        .injectors(List.copyOf(merged))
        .build();
  }

  /** This run with the settings a re-done report analyses with. */
  public RunInfo withAnalysisInputs(AnalysisInputs inputs) {
    return toBuilder().analysisInputs(inputs).build();
  }

  /** A run's facts, set by name; what is not set stays absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** This run's facts, to change some. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.date = date;
    b.backend = backend;
    b.modelId = modelId;
    b.injector = injector;
    b.baseUrl = baseUrl;
    b.endpoint = endpoint;
    b.dataset = dataset;
    b.seed = seed;
    b.inputLen = inputLen;
    b.outputLen = outputLen;
    b.rangeRatio = rangeRatio;
    b.prefixLen = prefixLen;
    b.warmupRequests = warmupRequests;
    b.profiles = profiles;
    b.settings = settings;
    b.serverChecks = serverChecks;
    b.gateDefinitions = gateDefinitions;
    b.capacity = capacity;
    b.injectors = injectors;
    b.goodputObjectives = goodputObjectives;
    b.analysisInputs = analysisInputs;
    b.ab = ab;
    return b;
  }

  /** {@link RunInfo} by name. */
  public static final class Builder {
    private String date;
    private String backend;
    private String modelId;
    private String injector;
    private String baseUrl;
    private String endpoint;
    private String dataset;
    private Long seed;
    private Integer inputLen;
    private Integer outputLen;
    private Double rangeRatio;
    private Integer prefixLen;
    private Integer warmupRequests;
    private Map<String, ServingFigures> profiles;
    private Map<String, String> settings;
    private Map<String, String> serverChecks;
    private Map<String, String> gateDefinitions;
    private CapacityFigures capacity;
    private List<InjectorRun> injectors;
    private String goodputObjectives;
    private AnalysisInputs analysisInputs;
    private AbFigures ab;

    private Builder() {}

    public Builder date(String v) {
      date = v;
      return this;
    }

    public Builder backend(String v) {
      backend = v;
      return this;
    }

    public Builder modelId(String v) {
      modelId = v;
      return this;
    }

    public Builder injector(String v) {
      injector = v;
      return this;
    }

    public Builder baseUrl(String v) {
      baseUrl = v;
      return this;
    }

    public Builder endpoint(String v) {
      endpoint = v;
      return this;
    }

    public Builder dataset(String v) {
      dataset = v;
      return this;
    }

    public Builder seed(Long v) {
      seed = v;
      return this;
    }

    public Builder inputLen(Integer v) {
      inputLen = v;
      return this;
    }

    public Builder outputLen(Integer v) {
      outputLen = v;
      return this;
    }

    public Builder rangeRatio(Double v) {
      rangeRatio = v;
      return this;
    }

    public Builder prefixLen(Integer v) {
      prefixLen = v;
      return this;
    }

    public Builder warmupRequests(Integer v) {
      warmupRequests = v;
      return this;
    }

    public Builder profiles(Map<String, ServingFigures> v) {
      profiles = v;
      return this;
    }

    public Builder settings(Map<String, String> v) {
      settings = v;
      return this;
    }

    public Builder serverChecks(Map<String, String> v) {
      serverChecks = v;
      return this;
    }

    public Builder gateDefinitions(Map<String, String> v) {
      gateDefinitions = v;
      return this;
    }

    public Builder capacity(CapacityFigures v) {
      capacity = v;
      return this;
    }

    public Builder injectors(List<InjectorRun> v) {
      injectors = v;
      return this;
    }

    public Builder goodputObjectives(String v) {
      goodputObjectives = v;
      return this;
    }

    public Builder analysisInputs(AnalysisInputs v) {
      analysisInputs = v;
      return this;
    }

    public Builder ab(AbFigures v) {
      ab = v;
      return this;
    }

    /**
     * The mode's figures, each in its own field of {@code summary.json} ({@code capacity}, {@code
     * ab}).
     */
    public Builder mode(ModeFigures figures) {
      if (figures instanceof CapacityFigures c) {
        capacity = c;
      } else if (figures instanceof AbFigures f) {
        ab = f;
      }
      return this;
    }

    public RunInfo build() {
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
          ab);
    }
  }
}
