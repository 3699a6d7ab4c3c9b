package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code llm/server-metrics.jsonl}: one {@link ServerSample} a line. */
public final class ServerMetricsFile {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();

  private ServerMetricsFile() {}

  /** The lines of some samples, each ended by a newline. */
  public static String lines(List<ServerSample> samples) {
    StringWriter w = new StringWriter(samples.size() * 120);
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      g.setRootValueSeparator(null);
      for (ServerSample s : samples) {
        g.writeStartObject();
        g.writeNumberField("time_ms", s.timeMs());
        g.writeStringField("endpoint", s.endpoint());
        g.writeStringField("name", s.name());
        g.writeObjectFieldStart("labels");
        for (Map.Entry<String, String> e : s.labels().entrySet()) {
          g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeNumberField("value", s.value());
        g.writeEndObject();
        g.flush();
        w.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  /**
   * The samples of a run folder's file; empty when the run has none (no metrics, or an older run).
   *
   * @throws UncheckedIOException when it cannot be read, or a line is not a sample (named)
   */
  public static List<ServerSample> read(Path llmFolder) {
    try {
      return readFile(llmFolder);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  private static List<ServerSample> readFile(Path llmFolder) throws IOException {
    Path file = llmFolder.resolve(RunFiles.SERVER_METRICS);
    List<ServerSample> out = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return out;
    }
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode o = JSON.readTree(line);
        if (o == null
            || !o.path("time_ms").canConvertToLong()
            || !o.path("name").isTextual()
            || !o.path("value").isNumber()) {
          throw new IOException(
              file
                  + " line "
                  + n
                  + ": expected {\"time_ms\",\"endpoint\",\"name\",\"labels\",\"value\"}");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        o.path("labels")
            .fields()
            .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        out.add(
            new ServerSample(
                o.get("time_ms").asLong(),
                o.path("endpoint").asText(""),
                o.get("name").asText(),
                labels,
                o.get("value").asDouble()));
      }
    }
    return out;
  }
}
