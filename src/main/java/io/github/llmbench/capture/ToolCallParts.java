package io.github.llmbench.capture;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The tool calls of a stream, put together from their pieces as they arrive: OpenAI's {@code
 * delta.tool_calls[]} gives each call's {@code index}, its {@code id} and {@code function.name} in
 * its first piece, and its {@code function.arguments} in pieces after. Kept only where answers are
 * (agent sessions send them back with the tool's result).
 */
final class ToolCallParts {
  private static final class Part {
    String id;
    final StringBuilder name = new StringBuilder();
    final StringBuilder arguments = new StringBuilder();
  }

  private final TreeMap<Integer, Part> byIndex = new TreeMap<>();

  /** A piece of call {@code index}: any of its fields may be null (not in this piece). */
  void add(int index, String id, String namePiece, String argumentsPiece) {
    Part p = byIndex.computeIfAbsent(index, i -> new Part());
    if (id != null && p.id == null) {
      p.id = id;
    }
    if (namePiece != null) {
      p.name.append(namePiece);
    }
    if (argumentsPiece != null) {
      p.arguments.append(argumentsPiece);
    }
  }

  /** The calls, in index order; a call the server gave no id gets {@code call_INDEX}. */
  List<ParsedStream.ToolCall> calls() {
    List<ParsedStream.ToolCall> out = new ArrayList<>(byIndex.size());
    byIndex.forEach(
        (i, p) ->
            out.add(
                new ParsedStream.ToolCall(
                    p.id != null ? p.id : "call_" + i, p.name.toString(), p.arguments.toString())));
    return out;
  }
}
