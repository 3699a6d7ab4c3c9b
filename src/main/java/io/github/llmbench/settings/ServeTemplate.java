package io.github.llmbench.settings;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code -Dserve.cmd} read once, as {@code sh} reads its words (and {@code vllm bench sweep}'s
 * {@code shlex.split}): single and double quotes and backslashes are the template's, which the user
 * wrote and the kit trusts; each {@code {NAME}} is a place for a value, which the kit does not
 * trust, so a value is never read as template text (no second scan, no shell parsing it).
 *
 * @param parts the template in order: text, the gaps between words, the placeholders
 * @param needsShell whether the template uses what only a shell does ({@code $VAR}, {@code ;},
 *     {@code &&}, pipes, redirections, globs, {@code ~}, {@code NAME=value} before the command, a
 *     shell keyword or builtin as its first word): then it runs under {@code sh -c}
 */
public record ServeTemplate(List<Part> parts, boolean needsShell) {

  /** A piece of the template. */
  public sealed interface Part permits Text, Gap, Placeholder {}

  /**
   * Template text within one word.
   *
   * @param raw as written, quotes and backslashes included
   * @param literal what it means once they are read
   * @param opensWord whether it makes a word exist though {@code literal} is empty ({@code ''})
   */
  public record Text(String raw, String literal, boolean opensWord) implements Part {}

  /** Blanks between words, as written. */
  public record Gap(String raw) implements Part {}

  /** {@code {NAME}}, inside the quotes {@code quoting} says. */
  public record Placeholder(String name, Quoting quoting) implements Part {}

  /** The quotes a character of the template is inside. */
  public enum Quoting {
    NONE,
    SINGLE,
    DOUBLE
  }

  /** The name inside braces, as {@code -Dserve.params} names are written. */
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_.-]*)}");

  /** Characters a shell acts on outside quotes (a newline ends a command). */
  private static final String SHELL_CHARS = "|&;<>()$`*?[#~\n";

  /** First words that are the shell's own: reserved words and builtins with no program. */
  private static final Set<String> SHELL_WORDS =
      Set.of(
          ("! { } . : case for if until while exec eval export set unset trap cd ulimit umask"
                  + " source wait command alias readonly shift exit return break continue times")
              .split(" "));

  /**
   * The template {@code template}.
   *
   * @throws IllegalArgumentException saying what is accepted, when a quote is never closed, it ends
   *     in a lone backslash or holds no word
   */
  public static ServeTemplate parse(String template) {
    Scan s = new Scan(template);
    s.run();
    List<List<Part>> words = new ServeTemplate(s.parts, false).words();
    if (words.isEmpty()) {
      throw new IllegalArgumentException("a command that starts the server");
    }
    StringBuilder first = new StringBuilder();
    words.get(0).forEach(p -> first.append(p instanceof Text t ? t.literal() : ""));
    boolean shellWord =
        SHELL_WORDS.contains(first.toString())
            || first.toString().matches("[A-Za-z_][A-Za-z0-9_]*=.*");
    return new ServeTemplate(List.copyOf(s.parts), s.shellChars || shellWord);
  }

  /** The names of its placeholders, in order, each once. */
  public Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    for (Part p : parts) {
      if (p instanceof Placeholder h) {
        names.add(h.name());
      }
    }
    return names;
  }

  /** Its words, each its text and placeholders in order (no gaps). */
  public List<List<Part>> words() {
    List<List<Part>> words = new ArrayList<>();
    List<Part> word = new ArrayList<>();
    for (Part p : parts) {
      if (p instanceof Gap) {
        if (!word.isEmpty()) {
          words.add(List.copyOf(word));
          word.clear();
        }
      } else if (p instanceof Placeholder || ((Text) p).opensWord() || !word.isEmpty()) {
        word.add(p);
      }
    }
    if (!word.isEmpty()) {
      words.add(List.copyOf(word));
    }
    return words;
  }

  /**
   * Checks that each placeholder is {@code {port}} or one of {@code known}.
   *
   * @throws IllegalArgumentException naming the first that is neither and what is accepted
   */
  public void checkNames(Set<String> known) {
    for (String name : names()) {
      if (!name.equals("port") && !known.contains(name)) {
        throw new IllegalArgumentException(
            "{port} or {NAME} of a -Dserve.params name ("
                + (known.isEmpty() ? "none given" : String.join(", ", known))
                + "), not {"
                + name
                + "} (\\{"
                + name
                + "} outside quotes is that text)");
      }
    }
  }

  /** One pass over the template, text, gaps and placeholders in the order written. */
  private static final class Scan {
    private final String template;
    private final List<Part> parts = new ArrayList<>();
    private final StringBuilder raw = new StringBuilder();
    private final StringBuilder literal = new StringBuilder();
    private boolean opens;
    private boolean shellChars;
    private Quoting quoting = Quoting.NONE;
    private int quoteAt;
    private int at;

    Scan(String template) {
      this.template = template;
    }

    void run() {
      while (at < template.length()) {
        Matcher m = PLACEHOLDER.matcher(template).region(at, template.length());
        if (m.lookingAt()) {
          flush();
          parts.add(new Placeholder(m.group(1), quoting));
          at = m.end();
        } else if (quoting == Quoting.NONE) {
          unquoted(template.charAt(at));
        } else {
          quoted(template.charAt(at));
        }
      }
      if (quoting != Quoting.NONE) {
        throw new IllegalArgumentException(
            "a command whose quotes close (the "
                + template.charAt(quoteAt)
                + " at character "
                + (quoteAt + 1)
                + " is never closed)");
      }
      flush();
    }

    private void unquoted(char c) {
      if (c == ' ' || c == '\t') {
        flush();
        int end = at;
        while (end < template.length() && " \t".indexOf(template.charAt(end)) >= 0) {
          end++;
        }
        parts.add(new Gap(template.substring(at, end)));
        at = end;
        return;
      }
      if (c == '\\') {
        if (at + 1 == template.length()) {
          throw new IllegalArgumentException(
              "a command that does not end in a lone backslash (write \\\\ for one)");
        }
        escaped(template.charAt(at + 1));
        return;
      }
      if (c == '\'' || c == '"') {
        quoting = c == '\'' ? Quoting.SINGLE : Quoting.DOUBLE;
        quoteAt = at;
      } else {
        literal.append(c);
        shellChars |= SHELL_CHARS.indexOf(c) >= 0;
      }
      raw.append(c);
      opens = true;
      at++;
    }

    private void quoted(char c) {
      boolean single = quoting == Quoting.SINGLE;
      if (c == (single ? '\'' : '"')) {
        quoting = Quoting.NONE;
      } else if (!single && c == '\\' && at + 1 < template.length()) {
        if ("$`\"\\\n".indexOf(template.charAt(at + 1)) >= 0) {
          escaped(template.charAt(at + 1));
          return;
        }
        literal.append(c);
      } else {
        literal.append(c);
        shellChars |= !single && (c == '$' || c == '`');
      }
      raw.append(c);
      at++;
    }

    /** A backslash and the character it escapes; backslash-newline joins lines, as in sh. */
    private void escaped(char next) {
      raw.append('\\').append(next);
      if (next != '\n') {
        literal.append(next);
        opens = true;
      }
      at += 2;
    }

    private void flush() {
      if (raw.length() > 0) {
        parts.add(new Text(raw.toString(), literal.toString(), opens || literal.length() > 0));
      }
      raw.setLength(0);
      literal.setLength(0);
      opens = false;
    }
  }
}
