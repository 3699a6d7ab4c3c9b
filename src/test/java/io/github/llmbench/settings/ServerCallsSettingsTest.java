package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code -Dprofile}, {@code -Dready.timeout} and {@code -Dcache.reset}: read, refused, shown. */
class ServerCallsSettingsTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static String error(Map<String, String> props) {
    return assertThrows(SettingsException.class, () -> read(props)).getMessage();
  }

  @Test
  void noneIsOnByDefault() {
    ServerSettings.ServerCalls calls = read(Map.of()).server().calls();
    assertEquals(ServerSettings.ServerCalls.NONE, calls);
    assertFalse(calls.beforeLevels());
    Map<String, String> lines = SettingsDescription.of(read(Map.of()));
    assertFalse(lines.containsKey("profile"), lines.toString());
    assertFalse(lines.containsKey("ready.timeout"), lines.toString());
    assertFalse(lines.containsKey("cache.reset"), lines.toString());
  }

  @Test
  void goodValuesAreRead() {
    BenchSettings s =
        read(Map.of("profile", "TRUE", "ready.timeout", "600", "cache.reset", "true"));
    assertEquals(new ServerSettings.ServerCalls(600, true, true), s.server().calls());
    assertTrue(s.server().calls().beforeLevels());
    assertFalse(read(Map.of("profile", "false")).server().calls().profile());
    assertEquals(0, read(Map.of("ready.timeout", "0")).server().calls().readyTimeoutSeconds());
    assertTrue(read(Map.of("cache.reset", "true")).server().calls().beforeLevels());
    Map<String, String> lines = SettingsDescription.of(s);
    assertEquals(
        "600 s (waited for GET /health or GET /v1/models first)", lines.get("ready.timeout"));
    assertTrue(lines.get("profile").startsWith("POST /start_profile"), lines.toString());
    assertTrue(lines.containsKey("cache.reset"), lines.toString());
  }

  @Test
  void badValuesAreOneLineNamingThePropertyTheValueAndWhatIsAccepted() {
    assertEquals(
        "Invalid -Dready.timeout=abc: expected a whole number from 0 to 604800",
        error(Map.of("ready.timeout", "abc")));
    assertEquals(
        "Invalid -Dready.timeout=-5: expected a whole number from 0 to 604800",
        error(Map.of("ready.timeout", "-5")));
    assertEquals(
        "Invalid -Dready.timeout=1.5: expected a whole number from 0 to 604800",
        error(Map.of("ready.timeout", "1.5")));
    assertEquals(
        "Invalid -Dcache.reset=yes: expected true or false", error(Map.of("cache.reset", "yes")));
    assertEquals(
        "Invalid -Dprofile=1: expected true or false (the server's profiler; the profiles"
            + " dataset's groups are -Dprofiles=1)",
        error(Map.of("profile", "1")));
  }

  @Test
  void profileAndProfilesAreToldApart() {
    // the profiler and the profiles dataset in one run
    BenchSettings both =
        read(
            Map.of(
                "profile",
                "true",
                "dataset",
                "profiles",
                "profiles",
                "tiny:SS",
                "profile.order",
                "mixed"));
    assertTrue(both.server().calls().profile());
    assertEquals("profiles:tiny:SS", both.workload().describe());
    assertEquals(
        "Invalid -Dprofile=tiny: expected true or false (the server's profiler; the profiles"
            + " dataset's groups are -Dprofiles=tiny)",
        error(Map.of("profile", "tiny")));
    assertEquals(
        "Invalid -Dprofiles=true: expected tiny, huge, or GROUP:P1,P2 (the server's profiler is"
            + " -Dprofile=true)",
        error(Map.of("dataset", "profiles", "profiles", "true")));
  }

  @Test
  void nearMissesAreStillCaughtAndPointToTheSettingThatTakesTheValue() {
    // one letter from both -Dprofile and -Dprofiles: the value says which was meant
    assertEquals(
        "Unknown setting -Dprofils=tiny: did you mean -Dprofiles? (-Dhelp lists every setting)",
        error(Map.of("profils", "tiny")));
    assertEquals(
        "Unknown setting -Dprofils=true: did you mean -Dprofile? (-Dhelp lists every setting)",
        error(Map.of("profils", "true")));
    assertEquals(
        "Unknown setting -Dprofil=true: did you mean -Dprofile? (-Dhelp lists every setting)",
        error(Map.of("profil", "true")));
    assertEquals(
        "Unknown setting -Dprofiless=huge: did you mean -Dprofiles? (-Dhelp lists every setting)",
        error(Map.of("profiless", "huge")));
    assertEquals(
        "Unknown setting -Dprofile.ordr=mixed: did you mean -Dprofile.order? the -Dprofile.*"
            + " settings are profile.order (-Dhelp lists all)",
        error(Map.of("profile.ordr", "mixed")));
    assertEquals(
        "Unknown setting -Dready_timeout=60: did you mean -Dready.timeout? (-Dhelp lists every"
            + " setting)",
        error(Map.of("ready_timeout", "60")));
    assertEquals(
        "Unknown setting -Dready.timeuot=60: did you mean -Dready.timeout? the -Dready.*"
            + " settings are ready.timeout (-Dhelp lists all)",
        error(Map.of("ready.timeuot", "60")));
    assertEquals(
        "Unknown setting -Dreset.cache=true: did you mean -Dcache.reset? (-Dhelp lists every"
            + " setting)",
        error(Map.of("reset.cache", "true")));
    assertEquals(
        "Unknown setting -Dcache.flush=true: the -Dcache.* settings are cache.reset (-Dhelp lists"
            + " all)",
        error(Map.of("cache.flush", "true")));
    assertEquals(
        Optional.empty(),
        SettingsTable.unknown(Map.of("profile", "true", "profiles", "tiny"), Set.of()),
        "both are settings");
  }

  @Test
  void helpListsThem() {
    String help = SettingsTable.help();
    for (String name : new String[] {"-Dprofile ", "-Dready.timeout", "-Dcache.reset"}) {
      assertTrue(help.contains(name), name);
    }
  }
}
