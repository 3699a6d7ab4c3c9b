package io.github.llmbench.settings;

import java.util.Map;
import java.util.Optional;

/**
 * Reads raw property values and turns them into typed, validated ones, by the settings' parsers and
 * defaults: what each group's reader reads with.
 */
final class SettingReader {
  private final Map<String, String> properties;

  SettingReader(Map<String, String> properties) {
    this.properties = properties;
  }

  /** Every property as given: a family's members ({@code -Dheader.X}, {@code -Dgate.X}). */
  Map<String, String> properties() {
    return properties;
  }

  /** The value as given, trimmed; empty when not set or blank. */
  Optional<String> raw(SettingsTable.Setting<?> setting) {
    return Optional.ofNullable(properties.get(setting.name()))
        .map(String::trim)
        .filter(s -> !s.isEmpty());
  }

  boolean isSet(SettingsTable.Setting<?> setting) {
    return raw(setting).isPresent();
  }

  /** The value given, parsed; empty when not set. */
  <T> Optional<T> optional(SettingsTable.Setting<T> setting) {
    return raw(setting).map(v -> setting.parser().parse(setting.name(), v));
  }

  /** The value given, else the setting's default (only for settings that have one). */
  <T> T get(SettingsTable.Setting<T> setting) {
    return optional(setting)
        .orElseGet(
            () ->
                setting
                    .typedDefault()
                    .orElseThrow(
                        () ->
                            new IllegalStateException(
                                "-D"
                                    + setting.name()
                                    + " has no default value: read it with optional()")));
  }
}
