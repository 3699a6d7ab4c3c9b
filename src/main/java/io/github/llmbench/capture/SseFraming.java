package io.github.llmbench.capture;

import java.util.Arrays;

/**
 * Cuts a {@code text/event-stream} body into events, as the HTML Living Standard's event-stream
 * interpretation does, for the one field the kit needs: {@code data}.
 *
 * <p>Bytes arrive in whatever pieces TCP and HTTP chunking give (an event split over two reads,
 * several events in one read, a CR in one read and its LF in the next). Lines end with CRLF, LF or
 * CR; a line starting with {@code :} is a comment ({@code : ping} keep-alives); {@code data} lines
 * of one event are joined with LF; a blank line dispatches the event, and an event without data is
 * dropped (so a lone comment or {@code event:} line is no event). A leading UTF-8 BOM is skipped.
 * Fields other than {@code data} ({@code event}, {@code id}, {@code retry}) are ignored:
 * OpenAI-compatible servers put everything in {@code data}, and the kit never reconnects.
 *
 * <p>Works on bytes, not characters: every delimiter is ASCII and UTF-8 never uses those bytes
 * inside a multi-byte character. One instance per response; not thread-safe (it lives on the
 * connection's event loop).
 */
final class SseFraming {

  /** Receives each event's data, valid only during the call. */
  interface Sink {
    void onData(byte[] data, int length);
  }

  /** An event longer than this is refused: no OpenAI chunk comes near it, a runaway body does. */
  static final int MAX_EVENT_BYTES = 4 << 20;

  private static final byte[] DATA = {'d', 'a', 't', 'a'};
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private byte[] line = new byte[512];
  private int lineLength;
  private byte[] data = new byte[512];
  private int dataLength;
  private boolean hasData;
  private boolean afterCr;
  private int bomChecked; // bytes of the stream's start compared with the BOM so far, 3 when done
  private boolean overflow;

  /**
   * Feeds the next bytes of the body.
   *
   * @return false when an event grew past {@link #MAX_EVENT_BYTES} (the rest is then ignored)
   */
  boolean feed(byte[] bytes, int offset, int length, Sink sink) {
    int end = offset + length;
    int i = offset;
    if (afterCr) {
      afterCr = false;
      if (i < end && bytes[i] == '\n') {
        i++; // the LF of a CRLF whose CR ended the previous read
      }
    }
    while (i < end && bomChecked < BOM.length) {
      if (bytes[i] == BOM[bomChecked]) {
        bomChecked++;
        i++;
      } else {
        appendRange(BOM, 0, bomChecked); // a BOM's first bytes, then not: they were text
        bomChecked = BOM.length;
      }
    }
    int start = i;
    for (; i < end && !overflow; i++) {
      byte b = bytes[i];
      if (b == '\n' || b == '\r') {
        appendRange(bytes, start, i);
        line(sink);
        if (b == '\r') {
          if (i + 1 == end) {
            afterCr = true; // its LF, if any, comes with the next read
          } else if (bytes[i + 1] == '\n') {
            i++;
          }
        }
        start = i + 1;
      }
    }
    if (!overflow && start < end) {
      appendRange(bytes, start, end);
    }
    return !overflow;
  }

  private void line(Sink sink) {
    int n = lineLength;
    lineLength = 0;
    if (n == 0) {
      if (hasData) {
        sink.onData(data, dataLength);
      }
      dataLength = 0;
      hasData = false;
      return;
    }
    if (line[0] == ':' || n < DATA.length) {
      return; // a comment, or a field too short to be data
    }
    for (int k = 0; k < DATA.length; k++) {
      if (line[k] != DATA[k]) {
        return;
      }
    }
    int value;
    if (n == DATA.length) {
      value = n; // "data" alone: an empty value
    } else if (line[DATA.length] == ':') {
      value = DATA.length + 1;
      if (value < n && line[value] == ' ') {
        value++;
      }
    } else {
      return; // e.g. "database: ..." is another field
    }
    if (hasData) {
      ensureData(dataLength + 1);
      data[dataLength++] = '\n';
    }
    ensureData(dataLength + n - value);
    System.arraycopy(line, value, data, dataLength, n - value);
    dataLength += n - value;
    hasData = true;
  }

  private void appendRange(byte[] bytes, int from, int to) {
    int n = to - from;
    if (n <= 0) {
      return;
    }
    ensureLine(lineLength + n);
    if (overflow) {
      return;
    }
    System.arraycopy(bytes, from, line, lineLength, n);
    lineLength += n;
  }

  private void ensureLine(int size) {
    if (size > MAX_EVENT_BYTES) {
      overflow = true;
      lineLength = 0;
      return;
    }
    if (size > line.length) {
      line = Arrays.copyOf(line, Math.max(size, line.length * 2));
    }
  }

  private void ensureData(int size) {
    if (size > MAX_EVENT_BYTES) {
      overflow = true;
      dataLength = 0;
      hasData = false;
      return;
    }
    if (size > data.length) {
      data = Arrays.copyOf(data, Math.max(size, data.length * 2));
    }
  }
}
