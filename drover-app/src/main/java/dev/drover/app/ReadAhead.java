package dev.drover.app;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Supplier;

/**
 * Runs a source (read a line, parse it, check it) on a thread of its own, a batch ahead of the
 * consumer, so that on a machine with two cores a file is parsed while the previous chunk is being
 * written. The source returns null at its end.
 *
 * <p>Only the reader thread touches the source. What it produces, or the exception it stopped on,
 * travels through one bounded queue, so the consumer sees the items in order and then the same
 * exception, in its own thread, at the place of the item that failed: errors are as if it had read
 * the file itself. {@link #close} stops the reader when the consumer gives up first.
 */
final class ReadAhead<T> implements Iterator<T>, AutoCloseable {
  private static final int BATCH = 1_000;

  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4);
  private final Thread reader;
  private List<T> batch = List.of();
  private int at;
  private boolean ended;

  /** What the reader ends with: {@code failure} null at the end of the source. */
  private record End(Throwable failure) {}

  ReadAhead(String name, Supplier<T> source) {
    reader = new Thread(() -> read(source), name);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(Supplier<T> source) {
    List<T> next = new ArrayList<>(BATCH);
    try {
      for (T item = source.get(); item != null; item = source.get()) {
        next.add(item);
        if (next.size() == BATCH) {
          queue.put(next);
          next = new ArrayList<>(BATCH);
        }
      }
      finish(next, null);
    } catch (InterruptedException e) {
      // the consumer closed us: nobody is waiting for the rest
    } catch (RuntimeException | Error e) {
      try {
        finish(next, e); // the items before the failure first, as a reader in line would see them
      } catch (InterruptedException stopped) {
        // closed meanwhile
      }
    }
  }

  private void finish(List<T> rest, Throwable failure) throws InterruptedException {
    if (!rest.isEmpty()) {
      queue.put(rest);
    }
    queue.put(new End(failure));
  }

  @Override
  public boolean hasNext() {
    while (at == batch.size() && !ended) {
      Object next;
      try {
        next = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading ahead", e);
      }
      if (next instanceof End end) {
        ended = true;
        if (end.failure() instanceof RuntimeException e) {
          throw e;
        } else if (end.failure() instanceof Error e) {
          throw e;
        }
      } else {
        @SuppressWarnings("unchecked")
        List<T> items = (List<T>) next;
        batch = items;
        at = 0;
      }
    }
    return at < batch.size();
  }

  @Override
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return batch.get(at++);
  }

  /** Stops the reader (if it is still reading) and waits for it, so the source may be closed. */
  @Override
  public void close() {
    reader.interrupt();
    try {
      reader.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
