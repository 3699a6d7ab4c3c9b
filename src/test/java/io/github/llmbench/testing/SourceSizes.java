package io.github.llmbench.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a Java source's methods are, read from its text: a method is a declaration line (a name
 * followed by "(", not a statement, not a field's initializer) followed by a brace block, and its
 * length is the lines from the declaration to the block's closing brace. Braces in string and
 * character literals and in line comments are not counted. Deliberately simple: it measures, it
 * does not parse Java.
 */
public final class SourceSizes {
  private SourceSizes() {}

  /** One method's or constructor's extent, 1-based lines. */
  public record Method(String name, int firstLine, int lines) {}

  private static final Pattern DECLARATION =
      Pattern.compile(
          "^\\s*(?:@\\w+(?:\\([^)]*\\))?\\s+)*"
              + "(?:(?:public|protected|private|static|final|abstract|synchronized|default|native)\\s+)*"
              + "(?:<[^>]+>\\s+)?"
              + "(?:[A-Za-z_][\\w.]*(?:<.*>)?(?:\\[\\])*\\s+)?"
              + "([A-Za-z_]\\w*)\\s*\\(");

  private static final Pattern NOT_A_DECLARATION =
      Pattern.compile(
          "^\\s*(?:if|for|while|switch|return|new|else|catch|try|throw|do|synchronized\\s*\\(|case|yield)\\b"
              + "|\\b(?:class|record|interface|enum)\\s"
              + "|^\\s*[a-z_][\\w.]*\\s*\\(" // a call statement, say foo(…) or a.b(…)
              + "|=");

  /** The methods and constructors declared in the source, nested ones included. */
  public static List<Method> methods(String source) {
    String[] lines = source.split("\n", -1);
    String[] code = new String[lines.length];
    for (int i = 0; i < lines.length; i++) {
      code[i] = codeOnly(lines[i]);
    }
    List<Method> methods = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String line = code[i];
      Matcher m = DECLARATION.matcher(line);
      if (!m.find() || !hasTypeOrModifier(line, m) || NOT_A_DECLARATION.matcher(line).find()) {
        continue;
      }
      int end = blockEnd(code, i);
      if (end >= 0) {
        methods.add(new Method(m.group(1), i + 1, end - i + 1));
      }
    }
    return methods;
  }

  /** The lines of the source, counted as an editor does. */
  public static int lines(String source) {
    String[] lines = source.split("\n", -1);
    return source.endsWith("\n") ? lines.length - 1 : lines.length;
  }

  /**
   * A declaration names a type or modifier before its name, or is a package-private constructor (a
   * capitalised name); a bare "name(" is a call.
   */
  private static boolean hasTypeOrModifier(String line, Matcher m) {
    return !line.substring(0, m.start(1)).isBlank() || Character.isUpperCase(m.group(1).charAt(0));
  }

  /**
   * The line of the brace closing the block opened after the declaration at {@code start}, or -1
   * when a ";" comes first (an abstract or interface method).
   */
  private static int blockEnd(String[] code, int start) {
    int depth = 0;
    boolean opened = false;
    for (int i = start; i < code.length; i++) {
      for (char c : code[i].toCharArray()) {
        if (c == ';' && !opened) {
          return -1;
        }
        if (c == '{') {
          depth++;
          opened = true;
        } else if (c == '}') {
          depth--;
          if (opened && depth == 0) {
            return i;
          }
        }
      }
    }
    return -1;
  }

  /** The line without string and character literals and without a trailing line comment. */
  static String codeOnly(String line) {
    StringBuilder out = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
          out.append(c);
        }
        continue;
      }
      if (c == '"' || c == '\'') {
        quote = c;
        out.append(c);
      } else if (c == '/' && i + 1 < line.length() && line.charAt(i + 1) == '/') {
        break;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
