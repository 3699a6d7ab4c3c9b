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
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code llm/client.jsonl}: one {@link ClientSample} a line, {@code
 * {"time_ms":..,"span_ms":..,"cores":..,
 * "cpu_ns":..,"loop_cpu_ns":[..],"gc_pause_ms":..,"heap_bytes":..,"lag_us":[[µs,count],..],"late_us":..,"late_busy_us":..}}.
 */
public final class ClientSamplesFile {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();

  private ClientSamplesFile() {}

  /** Appends samples to the file of {@code llmFolder} (created when absent). */
  public static void append(Path llmFolder, List<ClientSample> samples) {
    if (samples.isEmpty()) {
      return;
    }
    try {
      Files.createDirectories(llmFolder);
      Files.writeString(
          new RunFiles(llmFolder).client(),
          lines(samples),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines of some samples, each ended by a newline. */
  public static String lines(List<ClientSample> samples) {
    StringWriter w = new StringWriter(samples.size() * 200);
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      g.setRootValueSeparator(null);
      for (ClientSample s : samples) {
        g.writeStartObject();
        g.writeNumberField("time_ms", s.timeMs());
        g.writeNumberField("span_ms", s.spanMs());
        g.writeNumberField("cores", s.cores());
        g.writeNumberField("cpu_ns", s.processCpuNanos());
        g.writeArrayFieldStart("loop_cpu_ns");
        for (long v : s.loopCpuNanos()) {
          g.writeNumber(v);
        }
        g.writeEndArray();
        g.writeNumberField("gc_pause_ms", s.gcPauseMillis());
        g.writeNumberField("heap_bytes", s.heapUsedBytes());
        g.writeArrayFieldStart("lag_us");
        for (int i = 0; i < s.lagMicros().length; i++) {
          g.writeStartArray();
          g.writeNumber(s.lagMicros()[i]);
          g.writeNumber(s.lagCounts()[i]);
          g.writeEndArray();
        }
        g.writeEndArray();
        g.writeNumberField("late_us", s.lateMicros());
        g.writeNumberField("late_busy_us", s.lateBusyMicros());
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
   * The samples of a run's {@code llm/} folder; empty when it has none (a run from before the
   * probe, or a merge).
   *
   * @throws UncheckedIOException when it cannot be read, or a line is not a sample (named)
   */
  public static List<ClientSample> read(Path llmFolder) {
    Path file = new RunFiles(llmFolder).client();
    List<ClientSample> out = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return out;
    }
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (!line.isBlank()) {
          out.add(sample(JSON.readTree(line), file, n));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    return out;
  }

  private static ClientSample sample(JsonNode o, Path file, int n) throws IOException {
    if (o == null
        || !o.path("time_ms").canConvertToLong()
        || !o.path("span_ms").canConvertToLong()
        || !o.path("loop_cpu_ns").isArray()
        || !o.path("lag_us").isArray()) {
      throw new IOException(
          file + " line " + n + ": expected {\"time_ms\",\"span_ms\",\"loop_cpu_ns\",\"lag_us\"}");
    }
    JsonNode loops = o.get("loop_cpu_ns");
    long[] loopCpu = new long[loops.size()];
    for (int i = 0; i < loopCpu.length; i++) {
      loopCpu[i] = loops.get(i).asLong(-1);
    }
    JsonNode lag = o.get("lag_us");
    long[] values = new long[lag.size()];
    int[] counts = new int[lag.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = lag.get(i).path(0).asLong();
      counts[i] = lag.get(i).path(1).asInt();
    }
    return new ClientSample(
        o.get("time_ms").asLong(),
        o.get("span_ms").asLong(),
        new ClientSample.Cpu(o.path("cores").asInt(0), o.path("cpu_ns").asLong(-1), loopCpu),
        new ClientSample.Memory(o.path("gc_pause_ms").asLong(0), o.path("heap_bytes").asLong(0)),
        new ClientSample.Lag(
            values, counts, o.path("late_us").asLong(0), o.path("late_busy_us").asLong(0)));
  }
}
