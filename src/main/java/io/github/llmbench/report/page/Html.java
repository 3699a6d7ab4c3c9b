package io.github.llmbench.report.page;

/** The one HTML escaping function every text on the kit's pages goes through. */
public final class Html {

  private Html() {}

  /** Text safe inside an element or a quoted attribute: escapes {@code & < > " '}; null as "". */
  public static String esc(Object value) {
    if (value == null) {
      return "";
    }
    String s = String.valueOf(value);
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * JSON text safe inside {@code <script type="application/json">}: every {@code <}, {@code >},
   * {@code &} and the JavaScript line separators become {@code \}u escapes, which JSON reads back
   * as the same characters (they can only occur inside JSON strings).
   */
  public static String scriptJson(String json) {
    return json.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029");
  }
}
