package io.github.llmbench.summary;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Keeps secrets out of a summary: entries whose key names one ({@code api_key}, {@code
 * authorization}, {@code password}, {@code secret}, {@code bearer}, {@code credential}, tokens) are
 * dropped, and user info in URLs ({@code https://user:pass@host}) is removed.
 */
final class Secrets {
  private static final Pattern SECRET_KEY =
      Pattern.compile(
          "(?i).*(api[_-]?key|authorization|password|passwd|secret|bearer|credential|access[_-]?token|auth[_-]?token).*");

  private static final Pattern URL_USERINFO =
      Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@]*@");

  private Secrets() {}

  /** The entries without secret-named keys, URL user info removed from the values. */
  static Map<String, String> without(Map<String, String> m) {
    if (m == null) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    m.forEach(
        (k, v) -> {
          if (k != null && !SECRET_KEY.matcher(k).matches()) {
            out.put(k, withoutUserInfo(v));
          }
        });
    return out;
  }

  /** The text with the user info of a URL at its start removed. */
  static String withoutUserInfo(String s) {
    return s == null ? null : URL_USERINFO.matcher(s).replaceFirst("$1");
  }
}
