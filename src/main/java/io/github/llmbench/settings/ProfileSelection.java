package io.github.llmbench.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which of the SS/SL/LS/LL workload profiles to run, and from which group ({@code tiny} or {@code
 * huge}): {@code -Dprofiles=tiny}, {@code -Dprofiles=huge}, {@code -Dprofiles=tiny:SS,LL}.
 */
public record ProfileSelection(String group, List<String> names) {
  public static final List<String> GROUPS = List.of("tiny", "huge");
  public static final List<String> ALL = List.of("SS", "SL", "LS", "LL");

  public ProfileSelection {
    names = List.copyOf(names);
  }

  static ProfileSelection parse(String value) {
    String accepted = "tiny, huge, or a group with some of SS,SL,LS,LL, e.g. tiny:SS,LL";
    String[] parts = value.trim().split(":", 2);
    String group = parts[0].trim().toLowerCase(Locale.ROOT);
    if (!GROUPS.contains(group)) {
      throw SettingsException.invalid("profiles", value, accepted);
    }
    if (parts.length == 1) {
      return new ProfileSelection(group, ALL);
    }
    List<String> names = new ArrayList<>();
    for (String n : parts[1].split(",", -1)) {
      String name = n.trim().toUpperCase(Locale.ROOT);
      if (!ALL.contains(name) || names.contains(name)) {
        throw SettingsException.invalid("profiles", value, accepted);
      }
      names.add(name);
    }
    return new ProfileSelection(group, names);
  }

  @Override
  public String toString() {
    return names.equals(ALL) ? group : group + ":" + String.join(",", names);
  }
}
