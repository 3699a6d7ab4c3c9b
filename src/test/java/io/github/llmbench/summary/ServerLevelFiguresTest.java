package io.github.llmbench.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.analysis.DisaggregatedFigures;
import io.github.llmbench.analysis.ServerFigure;
import io.github.llmbench.analysis.ServerFigureValues;
import io.github.llmbench.analysis.ServerFigures;
import io.github.llmbench.analysis.SpeculativeFigures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's figures in {@code summary.json}: each window one flat object by the figures' names,
 * as when they were a map of names, so files written before read back and new ones read the same.
 */
class ServerLevelFiguresTest {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** A level's figures in the order the analysis puts them (speculative drafts first). */
  private static Map<ServerFigure, Double> level() {
    Map<ServerFigure, Double> f = new LinkedHashMap<>();
    f.put(CommonServerFigures.RUNNING_MEAN, 3.0);
    f.put(CommonServerFigures.ITL_MEAN_MS, null);
    f.put(CommonServerFigures.GENERATION_TOKENS_PER_S, 350.3649635036496);
    f.put(SpeculativeFigures.DRAFTS, 270.0);
    f.put(SpeculativeFigures.ACCEPTANCE_RATE, 0.5222222222222223);
    f.put(DisaggregatedFigures.TRANSFER_MB, 1.0e-7);
    f.put(ServerFigures.IDEAL_HIT_RATE, 0.4875);
    return f;
  }

  /** The same figures as the map of names they were. */
  private static Map<String, Object> asNames(Map<ServerFigure, Double> level) {
    Map<String, Double> byName = new LinkedHashMap<>();
    level.forEach((k, v) -> byName.put(k.name(), v));
    Map<String, Object> old = new LinkedHashMap<>();
    old.put("level", byName);
    old.put("steady", Map.of("waiting_max", 1.0));
    old.put("guards", List.of("requests waited"));
    return old;
  }

  private static final ServerLevelFigures FIGURES =
      new ServerLevelFigures(
          new ServerFigureValues(level()),
          new ServerFigureValues(Map.of(CommonServerFigures.WAITING_MAX, 1.0)),
          List.of("requests waited"));

  @Test
  void writesTheJsonOfTheMapOfNames() throws Exception {
    assertEquals(MAPPER.writeValueAsString(asNames(level())), MAPPER.writeValueAsString(FIGURES));
  }

  @Test
  void readsTheMapOfNamesBackToTheFamiliesKeysInItsOrder() throws Exception {
    String old = MAPPER.writeValueAsString(asNames(level()));
    ServerLevelFigures read = MAPPER.readValue(old, ServerLevelFigures.class);
    assertEquals(FIGURES, read);
    assertEquals(List.copyOf(level().keySet()), List.copyOf(read.level().values().keySet()));
    assertEquals(old, MAPPER.writeValueAsString(read), "written back the same");
    assertEquals(270.0, read.levelFigure(SpeculativeFigures.DRAFTS));
  }

  @Test
  void aSummaryReadsAndWritesItsLevelsServerFiguresTheSame() throws Exception {
    String json =
        "{\"output_throughput\": 1.0, \"levels\": {\"c2\": {\"server\": "
            + MAPPER.writeValueAsString(asNames(level()))
            + "}}}";
    Summary once = Summary.parse(json);
    Summary twice = Summary.parse(once.toJson());
    assertEquals(FIGURES, once.levels().get("c2").server());
    assertEquals(once.toJson(), twice.toJson());
    assertEquals(
        MAPPER.readTree(MAPPER.writeValueAsString(asNames(level()))),
        MAPPER.readTree(once.toJson()).get("levels").get("c2").get("server"));
  }
}
