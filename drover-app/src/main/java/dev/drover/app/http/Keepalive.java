package dev.drover.app.http;

import io.javalin.http.sse.SseClient;
import java.util.Set;

/**
 * Keeps quiet server-sent event streams open: Jetty closes a connection idle for 30 s, so the feeds
 * send a comment line (which EventSource ignores) about every 15 s.
 */
final class Keepalive {
  /** Polls of {@link EventFeed} (every 500 ms) between two pings. */
  static final long EVERY_TICKS = 30;

  private Keepalive() {}

  static void ping(Set<SseClient> clients) {
    clients.removeIf(SseClient::terminated);
    clients.forEach(c -> c.sendComment("ping"));
  }
}
