package io.github.llmbench.workload.sessions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.workload.DatasetException;
import io.github.llmbench.workload.DatasetFiles;
import io.github.llmbench.workload.TokenLengths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Recorded agent conversations in the Weka trace format (the agentic-coding traces AIPerf and
 * GuideLLM replay: {@code id}, {@code system_tokens}, {@code tool_tokens}, {@code requests} of
 * {@code t} (s from the conversation's start), {@code in} and {@code out} tokens, {@code api_time}
 * and {@code think_time} (s), and nested {@code "type":"subagent"} entries with requests of their
 * own), turned into sessions:
 *
 * <ul>
 *   <li>a conversation's requests are a chain: each continues the previous one's context (its
 *       prompt and real answer) and adds the tokens the trace says it added ({@code in} less the
 *       previous {@code in} and {@code out}); where the context shrank (a reset), the call starts
 *       afresh with {@code in} tokens;
 *   <li>the shared prefix ({@code tool_tokens + system_tokens}) is one text for every conversation,
 *       as it stays warm across sessions in the recorded service;
 *   <li>a sub-agent is a branch that starts after the parent's request before it, with a context of
 *       its own; the parent's next request waits for the sub-agent's last one (fan-in);
 *   <li>each wait is the recorded one: {@code think_time} where given, else the gap from the
 *       previous request's end ({@code t + api_time}) or start, at most {@code idleCapMs};
 *   <li>{@code out} becomes the call's {@code max_tokens}.
 * </ul>
 */
public final class WekaTraces {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The key of the prefix every conversation shares. */
  public static final String PREFIX_KEY = "weka-prefix";

  /** A wait longer than this is cut to it by default (AIPerf's cap too): a person away. */
  public static final double DEFAULT_IDLE_CAP_MS = 60_000;

  private WekaTraces() {}

  /**
   * The conversations of a Weka trace file (one JSON object, or JSON lines of them) or of every
   * {@code .json} and {@code .jsonl} file in a folder.
   *
   * @param idleCapMs the longest wait kept
   * @throws DatasetException naming the file, the conversation and the field that is wrong
   */
  public static List<AgentSession> read(Path path, double idleCapMs) {
    String where = "-Ddataset=weka:" + path;
    List<Path> files;
    if (Files.isDirectory(path)) {
      try (Stream<Path> s = Files.list(path)) {
        files =
            s.filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".jsonl"))
                .sorted()
                .toList();
      } catch (IOException e) {
        throw new DatasetException(
            "Invalid " + where + ": cannot list it (" + e.getMessage() + ")");
      }
    } else if (Files.isRegularFile(path)) {
      files = List.of(path);
    } else {
      throw new DatasetException("Invalid " + where + ": no such file or folder");
    }
    List<AgentSession> out = new ArrayList<>();
    for (Path f : files) {
      String text = DatasetFiles.text(f, "-Ddataset=weka:" + f).strip();
      List<String> objects =
          text.startsWith("{") && !text.contains("\n{") ? List.of(text) : text.lines().toList();
      for (int i = 0; i < objects.size(); i++) {
        String line = objects.get(i).strip();
        if (line.isEmpty()) {
          continue;
        }
        String at = "Malformed Weka trace " + f + (objects.size() > 1 ? " line " + (i + 1) : "");
        try {
          out.add(conversation(JSON.readTree(line), idleCapMs));
        } catch (JsonProcessingException e) {
          throw new DatasetException(at + ": not a JSON object");
        } catch (IllegalArgumentException e) {
          throw new DatasetException(at + ": " + e.getMessage());
        }
      }
    }
    if (out.isEmpty()) {
      throw new DatasetException("Invalid " + where + ": it holds no conversation");
    }
    return List.copyOf(out);
  }

  /** One conversation as a session. */
  static AgentSession conversation(JsonNode c, double idleCapMs) {
    if (c == null || !c.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    String id = c.path("id").isTextual() ? c.get("id").asText() : null;
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException(
          "\"id\" is " + c.get("id") + " (expected the conversation's id)");
    }
    List<SessionCall> calls = new ArrayList<>();
    new Chain("", prefix(c, "conversation \"" + id + "\""), idleCapMs, calls)
        .add(
            requests(c, "conversation \"" + id + "\""),
            "conversation \"" + id + "\"",
            List.of(),
            0);
    return new AgentSession(id, calls);
  }

  /** One chain of requests (the conversation's, or a sub-agent's), added to {@code calls}. */
  private static final class Chain {
    private final String prefixName;
    private final int prefixTokens;
    private final double idleCapMs;
    private final List<SessionCall> calls;

    Chain(String prefixName, int prefixTokens, double idleCapMs, List<SessionCall> calls) {
      this.prefixName = prefixName;
      this.prefixTokens = prefixTokens;
      this.idleCapMs = idleCapMs;
      this.calls = calls;
    }

    /**
     * Adds the chain's requests; its first waits for {@code waitFor}, which ended at {@code startS}
     * on the chain's clock (0: the chain's start). Returns the chain's last call and when it ended,
     * on the chain's clock.
     */
    End add(JsonNode requests, String where, List<String> waitFor, double startS) {
      String previous = null; // the chain's last call: the next one continues its context
      List<String> joins = new ArrayList<>(); // sub-agents the next call waits for too
      int prevIn = 0;
      int prevOut = 0;
      double readyS = startS; // when all the next call waits for had ended
      for (int k = 0; k < requests.size(); k++) {
        JsonNode r = requests.get(k);
        String rAt = where + " request " + (k + 1);
        double t = number(r, "t", rAt, true);
        if ("subagent".equals(r.path("type").asText())) {
          String agent = r.path("agent_id").asText("sub" + (k + 1));
          String subWhere = rAt + " (sub-agent \"" + agent + "\")";
          Chain sub = new Chain(prefixName + agent + "/", prefix(r, subWhere), idleCapMs, calls);
          List<String> subAfter = previous == null ? waitFor : List.of(previous);
          // its requests' t count from its spawn; what it waits for ended at readyS - t on that
          // clock
          End subEnd = sub.add(requests(r, subWhere), subWhere, subAfter, readyS - t);
          if (!"async_launched".equals(r.path("status").asText())) {
            joins.add(subEnd.call());
            double lasted =
                r.has("duration_ms")
                    ? number(r, "duration_ms", subWhere, false) / 1000
                    : subEnd.endS();
            readyS = Math.max(readyS, t + lasted);
          }
          continue;
        }
        int in = whole(r, "in", rAt, 1);
        int out = whole(r, "out", rAt, 0);
        String id = prefixName + "r" + (k + 1);
        SessionCall.Builder b = SessionCall.builder(id).maxTokens(Math.max(1, out));
        b.after(previous == null ? waitFor : List.of(previous)).after(joins);
        b.delay(new Delay.Fixed(waitMs(r, t, readyS, rAt)));
        int added = in - prevIn - prevOut;
        if (previous != null && added >= 1) {
          b.context(previous).user("{{tokens:" + added + "}}");
        } else {
          fresh(b, in);
        }
        calls.add(b.build());
        readyS = t + (r.has("api_time") ? number(r, "api_time", rAt, false) : 0);
        previous = id;
        joins.clear();
        prevIn = in;
        prevOut = out;
      }
      if (previous == null) {
        throw new IllegalArgumentException(
            where + " has no request of its own (expected requests with \"in\" and \"out\")");
      }
      return new End(previous, readyS);
    }

    private double waitMs(JsonNode r, double t, double readyS, String at) {
      double ms =
          r.has("think_time") ? number(r, "think_time", at, false) * 1000 : (t - readyS) * 1000;
      return Math.min(idleCapMs, Math.max(0, ms));
    }

    private void fresh(SessionCall.Builder b, int in) {
      int shared = Math.min(prefixTokens, in - 1);
      if (shared >= 1) {
        b.message(MessageTemplate.parse("system", "{{tokens:" + shared + ":" + PREFIX_KEY + "}}"));
      }
      b.user("{{tokens:" + (in - Math.max(0, shared)) + "}}");
    }
  }

  /** The last call of a chain and when it ended, in s on the chain's clock. */
  private record End(String call, double endS) {}

  private static int prefix(JsonNode c, String at) {
    int tools = c.has("tool_tokens") ? whole(c, "tool_tokens", at, 0) : 0;
    int system = c.has("system_tokens") ? whole(c, "system_tokens", at, 0) : 0;
    return tools + system;
  }

  private static JsonNode requests(JsonNode c, String at) {
    JsonNode r = c.get("requests");
    if (r == null || !r.isArray() || r.isEmpty()) {
      throw new IllegalArgumentException(
          at
              + ": \"requests\" is "
              + (r == null ? "missing" : r)
              + " (expected a non-empty array)");
    }
    return r;
  }

  private static double number(JsonNode r, String field, String at, boolean required) {
    JsonNode n = r.get(field);
    if (n == null && !required) {
      return 0;
    }
    if (n == null || !n.isNumber() || !Double.isFinite(n.asDouble()) || n.asDouble() < 0) {
      throw new IllegalArgumentException(
          at
              + ": \""
              + field
              + "\" is "
              + (n == null ? "missing" : n)
              + " (expected a number from 0)");
    }
    return n.asDouble();
  }

  private static int whole(JsonNode r, String field, String at, int min) {
    try {
      return TokenLengths.field(r, field, min);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(at + ": " + e.getMessage());
    }
  }
}
