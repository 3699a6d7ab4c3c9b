package io.github.llmbench.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code llm/requests.jsonl}: one {@link RequestRecord} as a JSON object per line (format:
 * {@link RequestRecordJson}). Blank lines and a leading byte-order mark are skipped; unknown fields
 * are ignored (newer writers may add some). A line that is not one JSON object, or lacks one of
 * {@code start_ms}, {@code end_ms}, {@code ok}, or has a value of the wrong type, is an {@link
 * IllegalArgumentException} naming the file and the 1-based line number. (Writing is done by {@link
 * RunRecorder}.)
 *
 * <p>One streaming parser reads the whole file (a million records of 128 chunks is over a
 * gigabyte): no string, tree or parser per line. Lines are Jackson's own count; each record must
 * start on a line of its own and end on it.
 */
public final class RequestsJsonl {

  /** Its codec reads the {@code server_timings} objects. */
  private static final JsonFactory FACTORY = new ObjectMapper().getFactory();

  private RequestsJsonl() {}

  /** All records of the file, in file order. */
  public static List<RequestRecord> read(Path file) {
    try (InputStream in = Files.newInputStream(file);
        JsonParser p = FACTORY.createParser(in)) { // UTF-8 by default, BOM skipped
      return read(p, file.toString());
    } catch (JsonProcessingException e) {
      throw malformed(file.toString(), lineOf(e, 0), e.getOriginalMessage(), e);
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
    reader.mark(1);
    if (reader.read() != '\uFEFF') { // a character stream keeps the BOM: skip it here
      reader.reset();
    }
    try (JsonParser p = FACTORY.createParser(reader)) {
      return read(p, sourceName);
    } catch (JsonProcessingException e) {
      throw malformed(sourceName, lineOf(e, 0), e.getOriginalMessage(), e);
    }
  }

  /** One line parsed; errors name {@code sourceName} and {@code lineNo}. */
  public static RequestRecord parseLine(String line, String sourceName, int lineNo) {
    try (JsonParser p = FACTORY.createParser(line)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw malformed(sourceName, lineNo, "empty line", null);
      }
      RequestRecord r = readObject(p, new RequestRecordJson(), sourceName, lineNo);
      if (p.nextToken() != null) {
        throw malformed(sourceName, lineNo, "more than one JSON value on the line", null);
      }
      return r;
    } catch (JsonProcessingException e) {
      throw malformed(sourceName, lineNo, e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<RequestRecord> read(JsonParser p, String sourceName) throws IOException {
    List<RequestRecord> out = new ArrayList<>();
    RequestRecordJson json = new RequestRecordJson();
    int lastLine = 0;
    JsonToken t;
    while ((t = p.nextToken()) != null) {
      int line = p.currentTokenLocation().getLineNr();
      if (line == lastLine) {
        throw malformed(sourceName, line, "more than one JSON value on the line", null);
      }
      out.add(readObject(p, json, sourceName, line));
      lastLine = p.currentTokenLocation().getLineNr();
      if (lastLine != line) {
        throw malformed(sourceName, line, "the record does not end on its line", null);
      }
    }
    return out;
  }

  /** The record at the parser's current token; errors name the line it starts on. */
  private static RequestRecord readObject(
      JsonParser p, RequestRecordJson json, String sourceName, int line) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw malformed(sourceName, line, "not a JSON object", null);
    }
    try {
      return json.read(p);
    } catch (JsonProcessingException e) {
      throw malformed(sourceName, line, e.getOriginalMessage(), e);
    } catch (IllegalArgumentException e) {
      throw malformed(sourceName, line, e.getMessage(), e);
    }
  }

  private static int lineOf(JsonProcessingException e, int fallback) {
    JsonLocation at = e.getLocation();
    return at == null ? fallback : at.getLineNr();
  }

  private static IllegalArgumentException malformed(
      String sourceName, int lineNo, String why, Exception cause) {
    return new IllegalArgumentException(
        "malformed record in " + sourceName + " at line " + lineNo + ": " + why, cause);
  }
}
