package dev.drover.app.http;

import dev.drover.Drover;
import dev.drover.app.ApiBridge;
import io.javalin.http.sse.SseClient;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status counts as server-sent events ({@code GET /api/v1/status/stream}), for the dashboard's
 * live overview: the counts at once, then again whenever they change. One poller serves every
 * client, and reads nothing while none is connected.
 */
final class StatusFeed implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StatusFeed.class);
  static final long POLL_MILLIS = 1000;

  private final Drover drover;
  private final Set<SseClient> clients = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService poller;
  private String last;
  private long ticks;

  StatusFeed(Drover drover) {
    this.drover = drover;
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "drover-status-feed");
              t.setDaemon(true);
              return t;
            });
    poller.scheduleWithFixedDelay(this::poll, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
  }

  synchronized void join(SseClient client) {
    client.keepAlive();
    client.onClose(() -> clients.remove(client));
    client.sendEvent("status", Reply.text(ApiBridge.status(drover)));
    clients.add(client);
  }

  private synchronized void poll() {
    if (clients.isEmpty()) {
      last = null;
      return;
    }
    try {
      String now = Reply.text(ApiBridge.status(drover));
      if (!now.equals(last)) {
        clients.removeIf(SseClient::terminated);
        clients.forEach(c -> c.sendEvent("status", now));
        last = now;
      }
      if (++ticks % (Keepalive.EVERY_TICKS / 2) == 0) {
        Keepalive.ping(clients);
      }
    } catch (RuntimeException e) {
      log.warn("status feed: cannot read the counts: {}", e.getMessage());
    }
  }

  @Override
  public void close() {
    poller.shutdownNow();
    clients.forEach(SseClient::close);
  }
}
