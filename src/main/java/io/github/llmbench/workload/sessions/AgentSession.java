package io.github.llmbench.workload.sessions;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An agent session: a graph of calls where a call waits for the calls it names in {@code after} and
 * may quote their answers. Checked when built: ids unique, every {@code after} names a call of the
 * session, no cycle, and a call quotes (or continues the context of) only calls it waits for,
 * directly or through others, so each quote is known when the call is sent.
 *
 * @param id the session's name, unique in its file
 * @param calls its calls, in the file's order
 */
public record AgentSession(String id, List<SessionCall> calls) {

  public AgentSession {
    calls = List.copyOf(calls);
    if (calls.isEmpty()) {
      throw new IllegalArgumentException("session " + quote(id) + " has no call");
    }
    Map<String, SessionCall> byId = new LinkedHashMap<>();
    for (SessionCall c : calls) {
      if (byId.put(c.id(), c) != null) {
        throw new IllegalArgumentException("two calls are named " + quote(c.id()));
      }
    }
    for (SessionCall c : calls) {
      for (String p : c.after()) {
        if (!byId.containsKey(p)) {
          throw new IllegalArgumentException(
              "call "
                  + quote(c.id())
                  + ": \"after\" names "
                  + quote(p)
                  + " (expected a call of this session: "
                  + String.join(", ", byId.keySet())
                  + ")");
        }
        if (p.equals(c.id())) {
          throw new IllegalArgumentException("call " + quote(c.id()) + " waits for itself");
        }
      }
    }
    List<String> order = order(calls, byId);
    Map<String, Set<String>> ancestors = ancestors(order, byId);
    for (SessionCall c : calls) {
      for (String needed : c.needs()) {
        if (!ancestors.get(c.id()).contains(needed)) {
          throw new IllegalArgumentException(
              "call "
                  + quote(c.id())
                  + " quotes or continues "
                  + quote(needed)
                  + ", which it does not wait for (expected a call named in its \"after\", or"
                  + " one those wait for)");
        }
      }
    }
  }

  /** The call named {@code id}. */
  public SessionCall call(String id) {
    for (SessionCall c : calls) {
      if (c.id().equals(id)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no call " + quote(id) + " in session " + quote(this.id));
  }

  /** Calls that wait for nothing: sent when the session starts. */
  public List<SessionCall> roots() {
    return calls.stream().filter(c -> c.after().isEmpty()).toList();
  }

  /** The calls that wait for {@code id}. */
  public List<SessionCall> children(String id) {
    return calls.stream().filter(c -> c.after().contains(id)).toList();
  }

  /** Its calls in an order where each comes after the calls it waits for. */
  public List<SessionCall> inDependencyOrder() {
    Map<String, SessionCall> byId = byId();
    return order(calls, byId).stream().map(byId::get).toList();
  }

  /** A call's step: 1 for a root, else one more than the deepest call it waits for. */
  public Map<String, Integer> steps() {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (SessionCall c : inDependencyOrder()) {
      int step = 1;
      for (String p : c.after()) {
        step = Math.max(step, out.get(p) + 1);
      }
      out.put(c.id(), step);
    }
    return out;
  }

  /** Its longest chain of calls, in steps. */
  public int depth() {
    return steps().values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  private Map<String, SessionCall> byId() {
    Map<String, SessionCall> byId = new LinkedHashMap<>();
    calls.forEach(c -> byId.put(c.id(), c));
    return byId;
  }

  /** Kahn's order, the file's order among calls ready together; a cycle is named. */
  private static List<String> order(List<SessionCall> calls, Map<String, SessionCall> byId) {
    List<String> out = new ArrayList<>();
    Set<String> done = new HashSet<>();
    boolean progressed = true;
    while (out.size() < calls.size() && progressed) {
      progressed = false;
      for (SessionCall c : calls) {
        if (!done.contains(c.id()) && done.containsAll(c.after())) {
          out.add(c.id());
          done.add(c.id());
          progressed = true;
        }
      }
    }
    if (out.size() < calls.size()) {
      List<String> stuck = new ArrayList<>(byId.keySet());
      stuck.removeAll(done);
      throw new IllegalArgumentException(
          "calls " + String.join(", ", stuck) + " wait for each other (a cycle in \"after\")");
    }
    return Collections.unmodifiableList(out);
  }

  private static Map<String, Set<String>> ancestors(
      List<String> order, Map<String, SessionCall> byId) {
    Map<String, Set<String>> out = new HashMap<>();
    for (String id : order) {
      Set<String> a = new HashSet<>();
      for (String p : byId.get(id).after()) {
        a.add(p);
        a.addAll(out.get(p));
      }
      out.put(id, a);
    }
    return out;
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }
}
