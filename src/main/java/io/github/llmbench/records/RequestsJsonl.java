package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code llm/requests.jsonl}: one {@link RequestRecord} as a JSON object per line. Blank
 * lines are skipped; unknown fields are ignored (newer writers may add some). A line that is not a
 * JSON object, or lacks one of {@code start_ms}, {@code end_ms}, {@code ok}, or has a value of the
 * wrong type, is an {@link IllegalArgumentException} naming the file and the 1-based line number.
 * (Writing is done by the stream capture, not here.)
 */
public final class RequestsJsonl {

  private static final List<String> REQUIRED = List.of("start_ms", "end_ms", "ok");

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
          .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
          .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true);

  private RequestsJsonl() {}

  /** All records of the file, in file order. */
  public static List<RequestRecord> read(Path file) {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(in, file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * All records read from {@code in}, in order.
   *
   * @param sourceName how errors name the source, e.g. the file path
   */
  public static List<RequestRecord> read(Reader in, String sourceName) throws IOException {
    BufferedReader reader = in instanceof BufferedReader b ? b : new BufferedReader(in);
    List<RequestRecord> out = new ArrayList<>();
    int lineNo = 0;
    String line;
    while ((line = reader.readLine()) != null) {
      lineNo++;
      if (lineNo == 1 && line.startsWith("\uFEFF")) {
        line = line.substring(1);
      }
      if (line.isBlank()) {
        continue;
      }
      out.add(parseLine(line, sourceName, lineNo));
    }
    return out;
  }

  /** One line parsed; errors name {@code sourceName} and {@code lineNo}. */
  public static RequestRecord parseLine(String line, String sourceName, int lineNo) {
    try {
      JsonNode node = MAPPER.readTree(line);
      if (node == null || !node.isObject()) {
        throw malformed(sourceName, lineNo, "not a JSON object", null);
      }
      for (String field : REQUIRED) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
          throw malformed(sourceName, lineNo, "missing field '" + field + "'", null);
        }
      }
      return MAPPER.treeToValue(node, RequestRecord.class);
    } catch (JsonProcessingException e) {
      throw malformed(sourceName, lineNo, e.getOriginalMessage(), e);
    }
  }

  private static IllegalArgumentException malformed(
      String sourceName, int lineNo, String why, Exception cause) {
    return new IllegalArgumentException(
        "malformed record in " + sourceName + " at line " + lineNo + ": " + why, cause);
  }
}
