package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.ImageLadder;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.core.Level;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run's {@code summary.json}, written and read here only: what the run was ({@link RunInfo}), the
 * overall figures under vLLM's field names at the top level (so {@code vllm bench serve
 * --save-result}'s readers read it, and it reads theirs), each level ({@code "levels": {"c8":
 * ...}}), the ladder's verdicts ({@code knee}) and the inputs the roofline used ({@code
 * report_inputs}). A single-level run also has that level's {@code steady_state} and {@code
 * roofline} at the top, as its top-level figures are that level's.
 *
 * <p>Fields a reader does not know are skipped, and missing ones read as absent (null, NaN or 0),
 * so summaries of older versions and vLLM's own result files read too.
 *
 * @param levels each measured level in run order; empty for a vLLM result file
 * @param knee null for a vLLM result file
 * @param imageLadder TTFT against the images per request of a ladder over {@code -Dimages}, else
 *     null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Summary(
    @JsonUnwrapped RunInfo run,
    @JsonUnwrapped ServingFigures overall,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, LevelSummary> levels,
    SteadyStateFigures steadyState,
    RooflineFigures roofline,
    KneeFigures knee,
    ImageLadderFigures imageLadder,
    ReportInputs reportInputs) {

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public Summary {
    run = run == null ? RunInfo.NONE : run;
    levels = levels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(levels));
  }

  /**
   * The model, GPU and tensor-parallel size the roofline used (catalog ids), which a re-done report
   * reuses.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ReportInputs(String model, String modelName, String gpu, Integer tp) {}

  /** The summary of an analysed run. */
  public static Summary of(RunAnalysis a, RunInfo run) {
    Map<String, LevelSummary> levels = new LinkedHashMap<>();
    a.levels().forEach((name, l) -> levels.put(name, LevelSummary.of(l, a)));
    LevelSummary only = levels.size() == 1 ? levels.values().iterator().next() : null;
    return new Summary(
        run,
        ServingFigures.of(a.overall()),
        levels,
        only == null ? null : only.steadyState(),
        only == null ? null : only.roofline(),
        KneeFigures.of(a.knee()),
        ImageLadderFigures.of(ImageLadder.of(a.levels().values())),
        new ReportInputs(
            a.model() == null ? null : a.model().id(),
            a.model() == null ? null : a.model().hfId(),
            a.gpu() == null ? null : a.gpu().id(),
            a.tp()));
  }

  /** This summary with each named level's goodput (levels not named keep none). */
  public Summary withGoodput(Map<String, LevelGoodput> goodput) {
    Map<String, LevelSummary> out = new LinkedHashMap<>();
    levels.forEach(
        (name, l) ->
            out.put(name, goodput.containsKey(name) ? l.withGoodput(goodput.get(name)) : l));
    return new Summary(run, overall, out, steadyState, roofline, knee, imageLadder, reportInputs);
  }

  /**
   * The run's measured levels by name: its {@code levels} without the warmup, or, for a summary
   * without levels (a vLLM result file), its top level as one level, named {@code c<max
   * concurrency>} or {@code all}.
   */
  public Map<String, LevelSummary> measuredLevels() {
    Map<String, LevelSummary> out = new LinkedHashMap<>();
    if (!levels.isEmpty()) {
      levels.forEach(
          (name, l) -> {
            if (Level.parse(name).map(Level::measured).orElse(true)) {
              out.put(name, l);
            }
          });
      return out;
    }
    Integer c = overall == null ? null : overall.maxConcurrency();
    out.put(
        c != null && c > 0 ? Level.closed(c).tag() : "all",
        LevelSummary.ofFigures(overall, steadyState, roofline));
    return out;
  }

  /** The summary as pretty-printed JSON. */
  public String toJson() {
    try {
      return MAPPER.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("summary not serialisable: " + e.getMessage(), e);
    }
  }

  /** Writes the summary to {@code file} (UTF-8, parent directories created). */
  public void write(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, toJson() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads a summary.
   *
   * @throws IOException when the file cannot be read or is not JSON
   * @throws NotASummary when it is JSON but not a summary (neither levels nor vLLM's figures)
   */
  public static Summary read(Path file) throws IOException {
    return parse(Files.readString(file));
  }

  /**
   * Parses a summary's JSON text.
   *
   * @throws JsonProcessingException when the text is not JSON
   * @throws NotASummary when it is JSON but not a summary
   */
  public static Summary parse(String json) throws JsonProcessingException {
    JsonNode tree = MAPPER.readTree(json);
    if (tree == null || !tree.isObject()) {
      throw new NotASummary("not a JSON object");
    }
    Summary s;
    try {
      s = MAPPER.treeToValue(tree, Summary.class);
    } catch (JsonProcessingException e) {
      throw new NotASummary(e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      throw new NotASummary(e.getMessage());
    }
    if (s.levels().isEmpty() && !tree.has(OUTPUT_THROUGHPUT)) {
      throw new NotASummary("neither levels nor vLLM's metric fields");
    }
    return s;
  }

  /** A field every vLLM result and every summary has at its top. */
  private static final String OUTPUT_THROUGHPUT =
      PropertyNamingStrategies.SnakeCaseStrategy.INSTANCE.translate("outputThroughput");

  /** JSON that is not a summary. */
  public static final class NotASummary extends IllegalArgumentException {
    NotASummary(String why) {
      super(why);
    }
  }

  /** The value as a tree of maps, lists and scalars (for a page's table of everything). */
  public static Map<String, Object> asMap(Object value) {
    @SuppressWarnings("unchecked")
    Map<String, Object> m = MAPPER.convertValue(value, LinkedHashMap.class);
    return m;
  }
}
