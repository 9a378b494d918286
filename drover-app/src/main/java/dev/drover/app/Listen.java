package dev.drover.app;

import dev.drover.ValidationException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where {@code drover serve} listens: {@code HOST:PORT} ({@code [::1]:PORT} for IPv6), port 0 for
 * any free one.
 */
record Listen(String host, int port) {
  static final String DEFAULT = "127.0.0.1:7777";

  static Listen parse(String option, String text) {
    int colon = text.lastIndexOf(':');
    ValidationException.check(
        colon > 0 && colon < text.length() - 1,
        option,
        "expected HOST:PORT such as " + DEFAULT + ", got '" + text + "'");
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new ValidationException(option, "expected a port number after ':', got '" + text + "'");
    }
    ValidationException.check(
        port >= 0 && port <= 65535, option, "port must be from 0 to 65535, got " + port);
    return new Listen(host, port);
  }

  /** True if every address the host names is a loopback one (reachable from this machine only). */
  boolean loopback(String option) {
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      throw new ValidationException(option, "unknown host '" + host + "'");
    }
  }

  /** The base URL, for the start-up line. */
  String url(int boundPort) {
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + boundPort;
  }
}
