package io.github.llmbench.settings;

import io.github.llmbench.settings.SettingsTable.Setting;
import io.github.llmbench.settings.SettingsTable.Topic;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The run mode the settings ask for, chosen once as they are read ({@link #choose}): planned levels
 * (when no other is chosen), a capacity search ({@code -Dsearch}), an interleaved A/B run ({@code
 * -Dcandidate.url}) or a sweep of child runs ({@code -Dserve.cmd}, {@code -Dsweep}). Each mode's
 * settings group is its record here; its {@link Kind} says which setting chooses it, which settings
 * are its own (refused in other runs) and which load shapes it refuses, so that what a mode
 * excludes is one table ({@link #KINDS}) that {@code -Dhelp} prints. The behaviour of each mode is
 * the {@code run} package's, chosen from this value once.
 */
public interface RunModeSettings {

  /** The mode's kind: its name, what chooses it, what it refuses. */
  Kind modeKind();

  /**
   * The default: the levels, ramps, trace or profiles the load settings plan; chosen when no other
   * kind is, refusing no shape.
   */
  record Planned() implements RunModeSettings {
    public static final Planned LEVELS = new Planned();

    static final Kind KIND =
        new Kind(
            "planned levels",
            Optional.empty(),
            r -> true,
            r -> "",
            List.of(),
            "",
            List.of(),
            in -> LEVELS);

    @Override
    public Kind modeKind() {
      return KIND;
    }
  }

  /**
   * The settings read before the mode is chosen: what its refusals and its reader look at.
   *
   * @param reader the properties, for what was set
   */
  record Inputs(
      SettingReader reader,
      ServerSettings server,
      LoadSettings load,
      WorkloadSettings workload,
      ReportSettings report) {}

  /**
   * Load shapes a mode refuses, and the line that says why: from the mode's choosing flag alone
   * ({@link #of}, {@link #always}), or from the settings ({@link #line}).
   */
  sealed interface Refusal {
    List<LoadShape> shapes();

    /** The line that refuses the shape, given the mode's choosing flag and the settings. */
    String message(String flag, Inputs in);

    /** The line when the flag alone gives it, as {@code -Dhelp} prints it; else empty. */
    Optional<String> reason(String flag);

    /** The line is {@code why} after the flag: {@code -Dsearch=conc chooses the levels itself}. */
    static Refusal of(String why, LoadShape... shapes) {
      return new FromFlag(List.of(shapes), flag -> flag + " " + why);
    }

    /** A line that names no flag. */
    static Refusal always(String line, LoadShape... shapes) {
      return new FromFlag(List.of(shapes), flag -> line);
    }

    /** A line of its own, from the settings. */
    static Refusal line(Function<Inputs, String> line, LoadShape... shapes) {
      return new FromInputs(List.of(shapes), line);
    }

    /** A refusal whose line follows from the mode's choosing flag. */
    record FromFlag(List<LoadShape> shapes, UnaryOperator<String> line) implements Refusal {
      @Override
      public String message(String flag, Inputs in) {
        return line.apply(flag);
      }

      @Override
      public Optional<String> reason(String flag) {
        return Optional.of(line.apply(flag));
      }
    }

    /** A refusal whose line names what the settings hold ({@code -Dhistory=DIR}, ...). */
    record FromInputs(List<LoadShape> shapes, Function<Inputs, String> line) implements Refusal {
      @Override
      public String message(String flag, Inputs in) {
        return line.apply(in);
      }

      @Override
      public Optional<String> reason(String flag) {
        return Optional.empty();
      }
    }
  }

  /**
   * One mode beside the default, as the settings see it.
   *
   * @param name as {@code -Dhelp} prints it
   * @param topic its settings group, the {@code -Dhelp=<topic>} that prints it (its choosing
   *     settings and its own); empty for planned levels, whose settings are the load's
   * @param chosenBy whether the properties choose this mode
   * @param flag the choosing setting as the refusals name it, e.g. {@code -Dsearch=conc}
   * @param own its settings, refused in a run of another mode ({@code -D<name> applies to ...})
   * @param choose what to add to choose it, for that line
   * @param refusals the load shapes it refuses, checked in order before its settings are read
   * @param read reads its settings group once chosen
   */
  record Kind(
      String name,
      Optional<Topic> topic,
      Predicate<SettingReader> chosenBy,
      Function<SettingReader, String> flag,
      List<Setting<?>> own,
      String choose,
      List<Refusal> refusals,
      Function<Inputs, RunModeSettings> read) {

    /** Refuses the first shape it does not take, naming it. */
    void refuseShapes(Inputs in) {
      for (Refusal refusal : refusals) {
        if (refusal.shapes().stream().anyMatch(s -> s.presentIn(in))) {
          throw new SettingsException(refusal.message(flag.apply(in.reader()), in));
        }
      }
    }

    /** Refuses its own settings in a run of another mode. */
    void refuseOwn(SettingReader r) {
      for (Setting<?> s : own) {
        if (r.isSet(s)) {
          throw new SettingsException("-D" + s.name() + " applies to " + name + ": add " + choose);
        }
      }
    }

    boolean refuses(LoadShape shape) {
      return refusals.stream().anyMatch(r -> r.shapes().contains(shape));
    }

    /**
     * The load shapes it refuses, as {@code -Dhelp} prints them after the settings it accepts: each
     * refusal's shapes, then its line where the flag alone gives it.
     */
    String refusalsHelp(SettingReader r) {
      StringBuilder sb = new StringBuilder("\nLoad shapes " + name + " refuses:\n");
      for (Refusal refusal : refusals) {
        // indented past the settings' "  -D" lines, as the run modes' table is
        sb.append("    ")
            .append(String.join(", ", refusal.shapes().stream().map(LoadShape::label).toList()))
            .append('\n');
        refusal.reason(flag.apply(r)).ifPresent(l -> sb.append("        ").append(l).append('\n'));
      }
      return sb.toString();
    }
  }

  /**
   * The modes, in the order they are chosen: a sweep leads child runs of any other mode (each child
   * reads its own), an A/B run refuses a search itself, and planned levels are the rest.
   */
  List<Kind> KINDS =
      List.of(SweepSettings.KIND, AbSettings.KIND, SearchSettings.KIND, Planned.KIND);

  /**
   * The one mode the settings ask for: the first kind chosen, the shapes it does not take refused,
   * its settings read; the other kinds' own settings refused, except in a sweep, whose child runs
   * read them.
   */
  static RunModeSettings choose(Inputs in) {
    Kind chosen = chosenKind(in.reader());
    chosen.refuseShapes(in);
    othersRefusedIn(chosen).forEach(k -> k.refuseOwn(in.reader()));
    return chosen.read().apply(in);
  }

  /** The kind the properties choose: the first whose flag is set, else planned levels. */
  static Kind chosenKind(SettingReader r) {
    return KINDS.stream().filter(k -> k.chosenBy().test(r)).findFirst().orElseThrow();
  }

  /**
   * The other kinds whose own settings a run of {@code chosen} refuses: all but itself, none in a
   * sweep, whose child runs read them.
   */
  static List<Kind> othersRefusedIn(Kind chosen) {
    return chosen == SweepSettings.KIND
        ? List.of()
        : KINDS.stream().filter(k -> k != chosen).toList();
  }

  /** Ends a table row, without the padding its last cell left. */
  private static void endLine(StringBuilder sb) {
    int end = sb.length();
    while (end > 0 && sb.charAt(end - 1) == ' ') {
      end--;
    }
    sb.setLength(end);
    sb.append('\n');
  }

  /** The table {@code -Dhelp} ends with: which load shape each mode takes. */
  static String helpTable() {
    StringBuilder sb = new StringBuilder("\nRun modes: which load shapes each takes\n");
    // indented past the settings' "  -D" lines, so no row reads as a setting
    sb.append(String.format(Locale.ROOT, "    %-28s", ""));
    KINDS.forEach(k -> sb.append(String.format(Locale.ROOT, " %-24s", k.name())));
    endLine(sb);
    for (LoadShape shape : LoadShape.values()) {
      sb.append(String.format(Locale.ROOT, "    %-28s", shape.label()));
      KINDS.forEach(
          k -> sb.append(String.format(Locale.ROOT, " %-24s", k.refuses(shape) ? "no" : "yes")));
      endLine(sb);
    }
    return sb.toString();
  }
}
