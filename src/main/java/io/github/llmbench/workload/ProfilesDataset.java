package io.github.llmbench.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The SS/SL/LS/LL workload profiles of the seed study ({@code ../shared/seeds}): a base sentence
 * ({@code prompts/profile-sentence.txt}) repeated {@code prompt_rep} times, and a fixed {@code
 * max_tokens}. Every request of a profile sends the same prompt, as the seed does, so a server's
 * prefix cache serves all but the first prefill: that is what these profiles measure.
 */
public final class ProfilesDataset implements Dataset {

  /** One profile: short/long prompt, short/long output. */
  public record Profile(String name, int promptRep, int maxTokens) {}

  /** The seed's table, by group. */
  public static final Map<String, List<Profile>> GROUPS =
      Map.of(
          "tiny",
          List.of(
              new Profile("SS", 40, 8),
              new Profile("SL", 40, 512),
              new Profile("LS", 400, 8),
              new Profile("LL", 400, 512)),
          "huge",
          List.of(
              new Profile("SS", 40, 1),
              new Profile("SL", 40, 512),
              new Profile("LS", 1000, 1),
              new Profile("LL", 1000, 512)));

  private final Map<String, Profile> profiles = new LinkedHashMap<>();
  private final String group;
  private final String sentence;
  private final long seed;

  public ProfilesDataset(String group, List<String> names, String sentence, long seed) {
    for (Profile p : GROUPS.get(group)) {
      if (names.contains(p.name())) {
        profiles.put(p.name(), p);
      }
    }
    this.group = group;
    this.sentence = sentence.strip();
    this.seed = seed;
  }

  /** The base sentence shipped in {@code prompts/profile-sentence.txt}. */
  public static String shippedSentence() {
    try (InputStream in =
        ProfilesDataset.class.getResourceAsStream("/prompts/profile-sentence.txt")) {
      if (in == null) {
        throw new IllegalStateException("prompts/profile-sentence.txt is not on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The profiles to run, in the seed's order. */
  public List<String> names() {
    return List.copyOf(profiles.keySet());
  }

  @Override
  public RequestSpec request(long index, String profile) {
    Profile p;
    if (profile != null) {
      p = profiles.get(profile);
    } else {
      // mixed order: a profile drawn per request
      List<Profile> all = List.copyOf(profiles.values());
      p = all.get(new Random(seed * 0x9E3779B97F4A7C15L + index).nextInt(all.size()));
    }
    String prompt = (sentence + " ").repeat(p.promptRep()).strip();
    return RequestSpec.ofPrompt(prompt, p.maxTokens(), p.name(), -1);
  }

  @Override
  public int maxTokens() {
    return profiles.values().stream().mapToInt(Profile::maxTokens).max().orElse(1);
  }

  /** One request per profile: each profile's prompt is always the same. */
  @Override
  public List<RequestSpec> longestRequests() {
    return profiles.keySet().stream().map(name -> request(0, name)).toList();
  }

  @Override
  public Dataset withSeed(long newSeed) {
    return new ProfilesDataset(group, names(), sentence, newSeed);
  }
}
