package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.model.EventKind;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runner's worker threads. The pool grows lazily: a thread is started only when a claimed task
 * finds every thread busy, so there are never more threads than work that ran at once, and a thread
 * idle for {@code idle} ends. Each start and end is an event ({@code worker_spawned}, {@code
 * worker_pruned}). How many tasks run at once is the runner's business (it claims no more than its
 * caps allow); the pool's size is only the ceiling.
 */
final class WorkerPool {
  private final ThreadPoolExecutor executor;
  private final AtomicInteger live = new AtomicInteger();
  private final AtomicInteger names = new AtomicInteger();
  private final EventLog events;
  private volatile boolean closing;

  WorkerPool(int size, Duration idle, EventLog events) {
    this.events = events;
    // Core = max with core threads timing out: below the size, a new task starts a thread even
    // if others are idle, so a worker that just posted its result never causes a rejection.
    this.executor =
        new ThreadPoolExecutor(
            size,
            size,
            idle.toMillis(),
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            this::thread);
    this.executor.allowCoreThreadTimeOut(true);
  }

  private Thread thread(Runnable work) {
    Thread t =
        new Thread(
            () -> {
              changed(EventKind.WORKER_SPAWNED, live.incrementAndGet());
              try {
                work.run();
              } finally {
                int left = live.decrementAndGet();
                if (!closing) {
                  changed(EventKind.WORKER_PRUNED, left);
                }
              }
            },
            "drover-worker-" + names.incrementAndGet());
    t.setDaemon(true);
    return t;
  }

  private void changed(EventKind kind, int workers) {
    ObjectNode d = Json.object();
    d.put("workers", workers);
    events.add(kind, null, d);
  }

  Future<?> submit(Runnable task) {
    return executor.submit(task);
  }

  /** Changes the ceiling, e.g. after a configuration reload; running work is not touched. */
  void resize(int size) {
    if (size > executor.getMaximumPoolSize()) {
      executor.setMaximumPoolSize(size);
      executor.setCorePoolSize(size);
    } else {
      executor.setCorePoolSize(size);
      executor.setMaximumPoolSize(size);
    }
  }

  /** Interrupts every worker; their ends are not reported as pruning. */
  void shutdownNow() {
    closing = true;
    executor.shutdownNow();
  }
}
