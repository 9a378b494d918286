package dev.drover.app.http;

import dev.drover.Drover;
import dev.drover.app.ApiBridge;
import dev.drover.model.Event;
import io.javalin.http.sse.SseClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event log as server-sent events ({@code GET /events/stream?after=ID}, or the {@code
 * Last-Event-ID} header a reconnecting browser sends). One poller reads new events for all clients,
 * so a hundred open dashboards cost one query per tick, not a hundred.
 *
 * <p>Why the lock: a new client first gets its backlog (events after its cursor up to the poller's
 * cursor), then joins the broadcast. Both steps happen under the poller's lock, so no event falls
 * between the backlog and the first broadcast. Each client keeps the id of the last event it was
 * sent, so one that starts after the poller's cursor (a page that already shows the newest events)
 * is not sent the events between the two again.
 */
final class EventFeed implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EventFeed.class);
  static final long POLL_MILLIS = 500;
  private static final int PAGE = 1000;

  private final Drover drover;

  /** Each client, with the id of the last event it was sent. */
  private final Map<SseClient, Long> clients = new ConcurrentHashMap<>();

  private final ScheduledExecutorService poller;
  private long cursor;
  private long ticks;

  EventFeed(Drover drover) {
    this.drover = drover;
    List<Event> last = drover.store().eventTail(1);
    this.cursor = last.isEmpty() ? 0 : last.get(last.size() - 1).id();
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "drover-event-feed");
              t.setDaemon(true);
              return t;
            });
    poller.scheduleWithFixedDelay(this::poll, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Serves one client: its backlog after {@code after}, then every new event. */
  synchronized void join(SseClient client, long after) {
    client.keepAlive();
    client.onClose(() -> clients.remove(client));
    long from = after;
    while (from < cursor) {
      List<Event> backlog = drover.store().eventList(from, PAGE);
      for (Event e : backlog) {
        if (e.id() > cursor) {
          break;
        }
        send(client, e);
        from = e.id();
      }
      if (backlog.size() < PAGE) {
        break;
      }
    }
    client.sendComment("live");
    clients.put(client, from);
  }

  private synchronized void poll() {
    try {
      if (clients.isEmpty()) {
        List<Event> last = drover.store().eventTail(1);
        cursor = last.isEmpty() ? cursor : Math.max(cursor, last.get(last.size() - 1).id());
        return;
      }
      List<Event> events = drover.store().eventList(cursor, PAGE);
      for (Event e : events) {
        clients.forEach(
            (c, last) -> {
              if (e.id() > last) {
                send(c, e);
                clients.replace(c, e.id());
              }
            });
        cursor = e.id();
      }
      // Jetty closes a connection idle for 30 s; a comment now and then keeps a quiet stream open.
      if (++ticks % Keepalive.EVERY_TICKS == 0) {
        Keepalive.ping(clients.keySet());
      }
    } catch (RuntimeException e) {
      log.warn("event feed: cannot read events: {}", e.getMessage());
    }
  }

  private void send(SseClient client, Event e) {
    if (client.terminated()) {
      clients.remove(client);
      return;
    }
    client.sendEvent("event", Reply.text(ApiBridge.event(e)), Long.toString(e.id()));
  }

  @Override
  public void close() {
    poller.shutdownNow();
    clients.keySet().forEach(SseClient::close);
  }
}
