package io.github.llmbench.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The combinations of a sweep's axes, as {@code vllm bench sweep} makes them: each axis a name and
 * its values ({@code max_num_seqs:64,128;max_num_batched_tokens:2048,8192}), combined as a grid
 * (every value of each axis with every value of the others, the first axis slowest) or zipped (the
 * i-th value of every axis together, the axes of one length).
 *
 * @param axes each axis's values, in the order given
 * @param zipped whether the axes are zipped rather than crossed
 */
public record SweepGrid(Map<String, List<String>> axes, boolean zipped) {

  /** The most combinations a sweep may have: each is a server start or a level group. */
  public static final int MAX_COMBINATIONS = 1000;

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");

  /** The form of the axes, for messages. */
  public static final String FORM =
      "NAME:VALUE,VALUE;NAME:VALUE,... e.g. max_num_seqs:64,128;max_num_batched_tokens:2048,8192";

  public SweepGrid {
    Map<String, List<String>> copy = new LinkedHashMap<>();
    axes.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    axes = Collections.unmodifiableMap(copy);
  }

  /**
   * The axes of {@code raw}.
   *
   * @param zipped whether to zip them (their lengths must agree) rather than cross them
   * @throws IllegalArgumentException naming the value and what is accepted
   */
  public static SweepGrid parse(String raw, boolean zipped) {
    Map<String, List<String>> axes = new LinkedHashMap<>();
    for (String part : raw.split(";")) {
      int colon = part.indexOf(':');
      String name = colon < 0 ? "" : part.substring(0, colon).trim();
      if (!NAME.matcher(name).matches() || axes.containsKey(name)) {
        throw new IllegalArgumentException(
            (axes.containsKey(name) ? "axis " + name + " given twice" : "no axis name in " + part)
                + ": expected "
                + FORM);
      }
      List<String> values = new ArrayList<>();
      for (String v : part.substring(colon + 1).split(",", -1)) {
        if (v.isBlank()) {
          throw new IllegalArgumentException(
              "axis " + name + " has an empty value: expected " + FORM);
        }
        values.add(v.trim());
      }
      axes.put(name, values);
    }
    SweepGrid grid = new SweepGrid(axes, zipped);
    grid.check();
    return grid;
  }

  private void check() {
    if (zipped && axes.values().stream().map(List::size).distinct().count() > 1) {
      throw new IllegalArgumentException(
          "zipped axes need as many values each: " + sizes() + " (cross them instead)");
    }
    long n = count();
    if (n > MAX_COMBINATIONS) {
      throw new IllegalArgumentException(
          n + " combinations (" + sizes() + "): at most " + MAX_COMBINATIONS);
    }
  }

  private String sizes() {
    StringBuilder sb = new StringBuilder();
    axes.forEach(
        (k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append(' ').append(v.size()));
    return sb.toString();
  }

  /** How many combinations there are. */
  public long count() {
    if (axes.isEmpty()) {
      return 0;
    }
    if (zipped) {
      return axes.values().iterator().next().size();
    }
    long n = 1;
    for (List<String> v : axes.values()) {
      n *= v.size();
      if (n > MAX_COMBINATIONS) {
        return n;
      }
    }
    return n;
  }

  /** Each combination, a value per axis in the axes' order; a grid's first axis varies slowest. */
  public List<Map<String, String>> combinations() {
    List<Map<String, String>> out = new ArrayList<>();
    if (axes.isEmpty()) {
      return out;
    }
    List<String> names = new ArrayList<>(axes.keySet());
    int n = (int) count();
    for (int i = 0; i < n; i++) {
      Map<String, String> c = new LinkedHashMap<>();
      int rest = i;
      for (int a = names.size() - 1; a >= 0; a--) {
        List<String> values = axes.get(names.get(a));
        c.put(names.get(a), values.get(zipped ? i : rest % values.size()));
        rest = zipped ? rest : rest / values.size();
      }
      Map<String, String> ordered = new LinkedHashMap<>();
      names.forEach(name -> ordered.put(name, c.get(name)));
      out.add(Collections.unmodifiableMap(ordered));
    }
    return out;
  }

  /**
   * The grid of exactly these combinations (a sweep file's list, as {@code vllm bench sweep}'s
   * {@code --serve-params} file holds them): zipped axes, one value of each per combination.
   *
   * @throws IllegalArgumentException when they do not all name the same settings
   */
  public static SweepGrid ofCombinations(List<Map<String, String>> combinations) {
    if (combinations.isEmpty()) {
      throw new IllegalArgumentException("no combination: expected a list of one or more objects");
    }
    Map<String, List<String>> axes = new LinkedHashMap<>();
    for (Map<String, String> c : combinations) {
      if (!c.keySet().equals(combinations.get(0).keySet()) || c.isEmpty()) {
        throw new IllegalArgumentException(
            "every combination naming the same settings, not "
                + combinations.get(0).keySet()
                + " and "
                + c.keySet());
      }
      c.forEach((k, v) -> axes.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
    }
    for (String name : axes.keySet()) {
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("no setting name: " + name);
      }
    }
    SweepGrid grid = new SweepGrid(axes, true);
    grid.check();
    return grid;
  }

  /** A combination's name, e.g. {@code max_num_seqs=64,max_num_batched_tokens=2048}. */
  public static String name(Map<String, String> combination) {
    StringBuilder sb = new StringBuilder();
    combination.forEach(
        (k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=').append(v));
    return sb.toString();
  }
}
